import { adapters, type CodeRequest, type Protocol } from '../core/index.ts';
import type { SentRequest } from '../state/domain/types.ts';
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

/**
 * A stored request as Retry may send it again, or null: it came from this browser's database, another
 * tab, the team server or a restored backup, so it is checked first. Its path must be the protocol's own
 * endpoint (then the URL is the gateway's, never another host's: `@evil.example` or `.evil.example` after a
 * base of `https://gateway` would be), and it keeps only the headers the app's requests carry (never an
 * account, address or method override a file planted). Null: build the request again instead.
 */
export function resendable(protocol: Protocol, sent: SentRequest): SentRequest | null {
  const adapter = adapters[protocol];
  if (sent.path !== adapter.path) return null;
  const allowed = new Set(['content-type', 'accept', ...Object.keys(adapter.headers)]);
  const headers = Object.fromEntries(
    Object.entries(sent.headers).filter(([name]) => allowed.has(name.toLowerCase())),
  );
  return { ...sent, headers };
}

/**
 * Where "View code" sends an attempt's request, and with which headers (the body aside: its attachments are
 * put in by the session): the stored request as Retry would send it, to the gateway in Settings or else the
 * page's own `/v1` at `origin`. Null: nothing the app sent (a replayed recording) or not a request Retry
 * would send.
 */
export function codeRequest(
  protocol: Protocol,
  sent: SentRequest,
  settings: Pick<Settings, 'baseUrl'>,
  origin: string,
): Omit<CodeRequest, 'body'> | null {
  const request = resendable(protocol, sent);
  if (!request) return null;
  const base = gatewayBase(settings);
  return { base: isCrossOrigin(base) ? base : origin + base, path: request.path, headers: request.headers };
}

export const corsAdvice =
  'The browser could not reach the gateway. If it is on another origin it may not allow this page (CORS): leave the base URL empty and start the app with HOPBASE_BASE_URL set, so the dev server proxies /v1 to the gateway.';
