import { useQuery } from '@tanstack/react-query';
import { useSettingsStore } from '../state/settingsStore.ts';
import { gatewayBase, isDirect } from './gateway.ts';

export interface ModelInfo {
  id: string;
  description?: string;
}

async function fetchModels(base: string, apiKey: string, direct: boolean): Promise<ModelInfo[]> {
  const headers: Record<string, string> = apiKey
    ? { authorization: `Bearer ${apiKey}`, 'x-api-key': apiKey }
    : {};
  if (direct && apiKey) headers['anthropic-dangerous-direct-browser-access'] = 'true';
  const response = await fetch(`${base}/models`, { headers });
  if (!response.ok) throw new Error(`The model list could not be loaded (HTTP ${response.status}).`);
  const body = (await response.json()) as { data?: { id: string; description?: string }[] };
  return (body.data ?? []).map(({ id, description }) => ({ id, description }));
}

/** The gateway's `GET /v1/models`, cached per gateway and key. */
export function useModels() {
  const settings = useSettingsStore((s) => s.settings);
  const base = gatewayBase(settings);
  return useQuery({
    queryKey: ['models', base, settings.apiKey],
    queryFn: () => fetchModels(base, settings.apiKey, isDirect(settings)),
    staleTime: 5 * 60_000,
    retry: 1,
  });
}
