import type { Settings } from '../state/stores/settingsStore.ts';

/** The gateway's `/v1` base: the configured URL, or the same origin (simulator or dev proxy). */
export function gatewayBase(settings: Pick<Settings, 'baseUrl'>): string {
  const base = settings.baseUrl.trim().replace(/\/+$/, '');
  return base === '' ? '/v1' : base;
}

/**
 * Whether a URL points at another origin than the page's own (an absolute URL: settings only keep
 * http(s) ones): CORS applies, a network failure may be CORS, and Anthropic wants its browser header.
 */
export function isCrossOrigin(url: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(url);
}

export const corsAdvice =
  'The browser could not reach the gateway. If it is on another origin it may not allow this page (CORS): leave the base URL empty and start the app with HOPBASE_BASE_URL set, so the dev server proxies /v1 to the gateway.';
