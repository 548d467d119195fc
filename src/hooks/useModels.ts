import { useQuery } from '@tanstack/react-query';
import {
  adapters,
  type ModelInfo,
  modelListRequest,
  type Protocol,
  type ProtocolAdapter,
} from '../core/index.ts';
import type { ChatSession } from '../session/ChatSession.ts';
import { gatewayBase, isCrossOrigin } from '../session/gateway.ts';
import { isUsableBaseUrl } from '../state/stores/settingsStore.ts';
import { useServices } from './appContext.tsx';
import { useSettings } from './useStores.ts';

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
  adapter: ProtocolAdapter<unknown>,
  base: string,
  apiKey: string,
  session: ChatSession,
): Promise<ModelInfo[]> {
  const crossOrigin = isCrossOrigin(base);
  const { url, headers } = modelListRequest(adapter, base, apiKey, crossOrigin);
  let response: Response;
  try {
    response = await session.fetchGateway(url, { headers });
  } catch (error) {
    if (crossOrigin && (await session.refusedByPolicy(url))) {
      throw new ModelListError({ kind: 'policy', origin: new URL(url).origin });
    }
    throw error;
  }
  if (!response.ok) throw new ModelListError({ kind: 'status', status: response.status });
  return adapter.models.read(await response.json());
}

/**
 * The gateway's `GET /v1/models`, cached per gateway, credential family and key, with the credentials of
 * `protocol` (protocols of one family send the same, so switching between them does not refetch).
 */
export function useModels(protocol: Protocol) {
  const baseUrl = useSettings((s) => s.settings.baseUrl);
  const apiKey = useSettings((s) => s.settings.apiKey);
  const adapter = adapters[protocol];
  const base = gatewayBase({ baseUrl });
  const { session } = useServices();
  return useQuery({
    queryKey: ['models', base, adapter.credentials.family, keyFingerprint(apiKey)],
    queryFn: () => {
      // The settings only store usable addresses; an older stored one is refused rather than called.
      if (!isUsableBaseUrl(baseUrl)) {
        throw new ModelListError({ kind: 'base-url' });
      }
      return fetchModels(adapter, base, apiKey, session);
    },
    staleTime: 5 * 60_000,
    retry: 1,
  });
}
