import { once } from 'node:events';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { errorBody, familyForPath, requestIdFor } from './errors.ts';
import { type Handler, isCrossSite, readBody, sendJson } from './http.ts';

export interface ProxyOptions {
  /** The real gateway, with or without a trailing `/v1`. */
  baseUrl: string;
  /** Added on the server side so the key never reaches the browser. */
  apiKey?: string | undefined;
}

/** Request headers that describe this hop or the browser, not the API call. */
const DROPPED_REQUEST_HEADERS = new Set([
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'proxy-authorization',
  'content-length',
  'accept-encoding',
  'origin',
  'referer',
  'cookie',
]);

/** fetch() already decoded the body and we re-chunk it, so these would be wrong downstream. */
const DROPPED_RESPONSE_HEADERS = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'content-encoding',
  'set-cookie',
]);

function upstreamHeaders(incoming: IncomingHttpHeaders, apiKey: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { 'accept-encoding': 'identity' };
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined || DROPPED_REQUEST_HEADERS.has(name)) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  if (apiKey) {
    headers.authorization = `Bearer ${apiKey}`;
    headers['x-api-key'] = apiKey;
  }
  return headers;
}

function upstreamUrl(baseUrl: string, path: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  return base.endsWith('/v1') ? `${base}${path.slice('/v1'.length)}` : `${base}${path}`;
}

async function forward(
  req: IncomingMessage,
  res: ServerResponse,
  target: string,
  apiKey?: string,
): Promise<void> {
  const controller = new AbortController();
  // The browser went away: stop the upstream generation too.
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  try {
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const body = hasBody ? Buffer.from((await readBody(req, Number.POSITIVE_INFINITY)).text) : undefined;
    const upstream = await fetch(target, {
      method: req.method,
      headers: upstreamHeaders(req.headers, apiKey),
      body,
      signal: controller.signal,
      redirect: 'manual',
    });
    const headers: Record<string, string> = {};
    upstream.headers.forEach((value, name) => {
      if (!DROPPED_RESPONSE_HEADERS.has(name)) headers[name] = value;
    });
    res.writeHead(upstream.status, headers);
    res.flushHeaders();
    if (upstream.body) {
      const reader = upstream.body.getReader();
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        // Write each chunk as it arrives (no buffering), pausing only for backpressure.
        if (!res.write(chunk.value)) await once(res, 'drain', { signal: controller.signal });
      }
    }
    res.end();
  } catch (error) {
    if (controller.signal.aborted) return;
    if (res.headersSent) {
      // The gateway cut the stream: cut ours the same way so the client sees it.
      res.destroy();
      return;
    }
    const family = familyForPath(new URL(req.url ?? '/', 'http://proxy').pathname);
    const message = `Could not reach the HopBase gateway: ${error instanceof Error ? error.message : String(error)}`;
    sendJson(
      res,
      502,
      errorBody(family, { status: 502, kind: 'server', message }, requestIdFor(family).value),
    );
  }
}

/**
 * Forwards `/v1/*` to a real gateway, streaming the response through as it arrives. The proxy adds the
 * key, so it serves the app's own origin only: another website's page (even a "simple" `text/plain`
 * POST, which needs no preflight) must not get to spend it.
 */
export function createGatewayProxy({ baseUrl, apiKey }: ProxyOptions): Handler {
  return (req, res, next) => {
    const path = new URL(req.url ?? '/', 'http://proxy').pathname;
    if (path !== '/v1' && !path.startsWith('/v1/')) {
      if (next) next();
      else sendJson(res, 404, { error: `Not proxied: ${path}` });
      return;
    }
    if (isCrossSite(req)) {
      const family = familyForPath(path);
      const message = `Cross-site request refused: this proxy adds the server's API key and serves only pages of its own origin (${req.headers.host ?? 'unknown host'}).`;
      sendJson(
        res,
        403,
        errorBody(family, { status: 403, kind: 'permission', message }, requestIdFor(family).value),
      );
      return;
    }
    const search = new URL(req.url ?? '/', 'http://proxy').search;
    void forward(req, res, `${upstreamUrl(baseUrl, path)}${search}`, apiKey);
  };
}
