import { useQuery } from '@tanstack/react-query';
import { authHeaders, type Protocol } from '../core/index.ts';
import { gatewayBase, isCrossOrigin } from '../session/gateway.ts';
import { isUsableBaseUrl } from '../state/settingsStore.ts';
import { useServices } from './appContext.tsx';
import { useSettings } from './useStores.ts';

export interface ModelInfo {
  id: string;
  description?: string;
}

/** Why the model list could not be had, for the UI to put in words (a network failure stays a TypeError). */
export type ModelListProblem =
  | { kind: 'status'; status: number }
  | { kind: 'base-url' }
  | { kind: 'policy'; origin: string };

export class ModelListError extends Error {
  constructor(readonly reason: ModelListProblem) {
    super(`The model list could not be loaded: ${JSON.stringify(reason)}`);
    this.name = 'ModelListError';
  }
}

/**
 * A short, non-reversible tag of the API key (FNV-1a, 32 bits): the query cache is keyed per key without
 * holding the key itself (query keys show up in devtools and cache dumps).
 */
export function keyFingerprint(apiKey: string): string {
  if (apiKey === '') return '';
  let hash = 0x811c9dc5;
  for (let i = 0; i < apiKey.length; i++) {
    hash ^= apiKey.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

async function fetchModels(
  base: string,
  headers: Record<string, string>,
  refusedByPolicy: (url: string) => Promise<boolean>,
): Promise<ModelInfo[]> {
  const url = `${base}/models`;
  let response: Response;
  try {
    response = await fetch(url, { headers });
  } catch (error) {
    if (await refusedByPolicy(url)) {
      throw new ModelListError({ kind: 'policy', origin: new URL(url).origin });
    }
    throw error;
  }
  if (!response.ok) throw new ModelListError({ kind: 'status', status: response.status });
  const body = (await response.json()) as { data?: { id: string; description?: string }[] };
  return (body.data ?? []).map(({ id, description }) => ({ id, description }));
}

/**
 * The gateway's `GET /v1/models`, cached per gateway and key, with the credentials of the protocol in
 * use (the OpenAI protocols share theirs, so switching between them does not refetch).
 */
export function useModels() {
  const baseUrl = useSettings((s) => s.settings.baseUrl);
  const apiKey = useSettings((s) => s.settings.apiKey);
  const credentials: Protocol = useSettings((s) =>
    s.settings.protocol === 'messages' ? 'messages' : 'chat',
  );
  const base = gatewayBase({ baseUrl });
  const { session } = useServices();
  return useQuery({
    queryKey: ['models', base, credentials, keyFingerprint(apiKey)],
    queryFn: () => {
      // The settings only store usable addresses; an older stored one is refused rather than called.
      if (!isUsableBaseUrl(baseUrl)) {
        throw new ModelListError({ kind: 'base-url' });
      }
      const crossOrigin = isCrossOrigin(base);
      return fetchModels(base, authHeaders(credentials, apiKey, crossOrigin), (url) =>
        crossOrigin ? session.refusedByPolicy(url) : Promise.resolve(false),
      );
    },
    staleTime: 5 * 60_000,
    retry: 1,
  });
}
