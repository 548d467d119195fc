import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * The page's Content-Security-Policy. Everything comes from the server's own origin: scripts and
 * styles as files (React sets `style` through the CSSOM, which CSP allows), but for the page's own inline
 * scripts, each allowed by its hash (`inlineScriptHashes`), no plugins, no `<base>`, no framing. Images
 * also from `blob:`: the thumbnails of attached files, object URLs the page makes of its own bytes (never
 * a URL from elsewhere). `connect-src` adds only the gateways the operator lists in HOPBASE_CONNECT_SRC,
 * so direct-to-gateway mode works towards those and no others.
 */
export function contentSecurityPolicy(
  connectSrc: readonly string[],
  scriptHashes: readonly string[] = [],
): string {
  return [
    "default-src 'self'",
    ["script-src 'self'", ...scriptHashes].join(' '),
    "style-src 'self'",
    "img-src 'self' blob:",
    "font-src 'self'",
    `connect-src ${["'self'", ...connectSrc].join(' ')}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The CSP sources (`'sha256-…'`) of the inline scripts in the page's `html`: the build puts one there, the
 * script that paints the last screen before the app's code arrives (src/app/firstScreen). Only a bare
 * `<script>` is one; a script with a `src` is a file, allowed by `'self'`.
 */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    ([, code]) => `'sha256-${createHash('sha256').update(code!).digest('base64')}'`,
  );
}

/** Headers sent with every response of the production server, pages and API alike. */
export function securityHeaders(
  connectSrc: readonly string[],
  scriptHashes: readonly string[] = [],
): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(connectSrc, scriptHashes),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    // For browsers that predate frame-ancestors.
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
  };
}

/**
 * A path the proxy must not interpret: an encoded slash or backslash, an encoded dot, a literal
 * backslash, an empty segment, or a `.`/`..` segment. Such paths are how a request for an allowed
 * path turns into another one after a later decoding or normalisation (here, in fetch's URL parser,
 * or in the gateway's router), so they get 400 instead of any interpretation.
 */
export function isAmbiguousPath(rawPath: string): boolean {
  if (/%(2e|2f|5c)|\\|\/\//i.test(rawPath)) return true;
  return rawPath.split('/').some((segment) => segment === '.' || segment === '..');
}

/** Where a request to the proxy comes from, as far as a browser tells. */
export type RequestSource = 'same-origin' | 'cross-site' | 'no-origin';

function sameHost(origin: string, host: string | undefined): boolean {
  try {
    const from = new URL(origin);
    // Parsed with the origin's scheme so a default port written out (`host:80`) still matches.
    return from.host === new URL(`${from.protocol}//${host ?? ''}`).host;
  } catch {
    return false;
  }
}

/**
 * Browsers mark every request: `Sec-Fetch-Site` (in secure contexts: HTTPS and localhost) and, on
 * anything but a same-origin GET, `Origin`. The app's own requests are `same-origin`; another site's
 * page is `cross-site` (`Origin: null` from a sandboxed frame or a `data:` page included). A request
 * with neither header, or one the user typed into the address bar (`Sec-Fetch-Site: none`), did not
 * come from the app: curl, another program, an SDK, a page served over plain HTTP on a non-local name
 * (whose same-origin GETs carry no marker at all).
 */
export function requestSource(req: IncomingMessage): RequestSource {
  const site = req.headers['sec-fetch-site'];
  const origin = req.headers.origin;
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return 'cross-site';
  if (origin !== undefined) return sameHost(origin, req.headers.host) ? 'same-origin' : 'cross-site';
  return site === 'same-origin' ? 'same-origin' : 'no-origin';
}

/**
 * Whether a person's data may be served to this request: never to another site's page (not even a read,
 * whose status or timing alone would tell that site what the person has: an `<img>` of a guessed id loads
 * or fails), and whatever changes something only to the app's own page. A read with no marker at all is
 * served (curl, or the app over plain HTTP on a name that is not local): no browser sent it for a page.
 */
export function mayServePersonalData(req: IncomingMessage): boolean {
  const source = requestSource(req);
  return (
    source === 'same-origin' || (source === 'no-origin' && (req.method === 'GET' || req.method === 'HEAD'))
  );
}
