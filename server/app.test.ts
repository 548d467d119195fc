import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { frames, readText } from '../simulator/testing.ts';
import { createServerApp, IMMUTABLE, REVALIDATE, type ServerApp } from './app.ts';
import { DEFAULT_LIMITS, type ServerConfig } from './config.ts';
import { precompress } from './precompress.ts';
import { contentSecurityPolicy, inlineScriptHashes } from './security.ts';
import { fromApp, rawRequest } from './testing.ts';

// The production server's static side and its simulator mode, in process on 127.0.0.1: cache headers,
// compression, /healthz, security headers on every response, the Host check.

const INDEX =
  '<!doctype html><html><head><script type="module" src="/assets/index-Ab12Cd34.js"></script></head>' +
  '<body><div id="root"></div><script>document.title=\'x\'</script></body></html>';
/** The inline script's hash, as `openssl dgst -sha256 -binary | base64` gives it. */
const INDEX_SCRIPT_HASH = "'sha256-0XQZ7aST49KmyfZxNvnCGVoBYcF3pv/Te/oNEavi2jU='";
/** Compressible and larger than the 1 KB threshold. */
const SCRIPT = `console.log(${JSON.stringify('HopBase '.repeat(2000))});\n`;
const STYLE = `body { color: #123; }\n${'.x { margin: 0 }\n'.repeat(500)}`;

let distDir: string;
let app: ServerApp;
let url: string;

beforeAll(async () => {
  distDir = await mkdtemp(join(tmpdir(), 'hopbase-dist-'));
  await mkdir(join(distDir, 'assets'));
  await writeFile(join(distDir, 'index.html'), INDEX);
  await writeFile(join(distDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await writeFile(join(distDir, 'assets', 'index-Ab12Cd34.js'), SCRIPT);
  await precompress(distDir);
  // Written after precompression: a build without `.br`/`.gz` files is compressed on the fly.
  await writeFile(join(distDir, 'assets', 'index-Ef56Gh78.css'), STYLE);
  const config: ServerConfig = {
    host: '127.0.0.1',
    port: 0,
    distDir,
    connectSrc: ['https://gateway.example.com'],
    allowedHosts: ['chat.example.com'],
    limits: DEFAULT_LIMITS,
  };
  app = createServerApp(config, () => {});
  url = await app.listen();
});

afterAll(async () => {
  await app.close();
  await rm(distDir, { recursive: true, force: true });
});

const SECURITY_HEADERS = {
  'content-security-policy': contentSecurityPolicy(['https://gateway.example.com'], [INDEX_SCRIPT_HASH]),
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

describe('precompression at build time', () => {
  it('writes .br and .gz beside compressible files over 1 KB only', async () => {
    expect((await readdir(join(distDir, 'assets'))).sort()).toEqual([
      'index-Ab12Cd34.js',
      'index-Ab12Cd34.js.br',
      'index-Ab12Cd34.js.gz',
      'index-Ef56Gh78.css',
    ]);
    expect(await readdir(distDir)).not.toContain('index.html.br');
  });
});

describe('static files', () => {
  it('serves index.html with no-cache and an ETag, and 304 on revalidation', async () => {
    const res = await fetch(`${url}/`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(INDEX);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe(REVALIDATE);
    const etag = res.headers.get('etag');
    expect(etag).toMatch(/^"/);
    const again = await fetch(`${url}/index.html`, { headers: { 'if-none-match': etag ?? '' } });
    expect(again.status).toBe(304);
    expect(again.headers.get('cache-control')).toBe(REVALIDATE);
  });

  it('serves hashed assets as immutable for a year', async () => {
    for (const path of ['/assets/index-Ab12Cd34.js', '/assets/index-Ef56Gh78.css']) {
      const res = await fetch(`${url}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe(IMMUTABLE);
    }
    expect(IMMUTABLE).toBe('public, max-age=31536000, immutable');
  });

  it('serves the brotli file to a browser that accepts it', async () => {
    const res = await rawRequest(url, '/assets/index-Ab12Cd34.js', {
      headers: { 'accept-encoding': 'gzip, deflate, br, zstd' },
    });
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['content-type']).toMatch(/^text\/javascript/);
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
    const body = res.bytes;
    expect(body.length).toBeLessThan(SCRIPT.length / 10);
    expect(brotliDecompressSync(body).toString()).toBe(SCRIPT);
  });

  it('serves the gzip file to a client that accepts only gzip', async () => {
    const res = await rawRequest(url, '/assets/index-Ab12Cd34.js', {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.bytes).toString()).toBe(SCRIPT);
  });

  it('gzips on the fly what the build did not precompress', async () => {
    const res = await rawRequest(url, '/assets/index-Ef56Gh78.css', {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
    expect(gunzipSync(res.bytes).toString()).toBe(STYLE);
  });

  it('sends the plain file to a client that accepts no encoding', async () => {
    const res = await rawRequest(url, '/assets/index-Ab12Cd34.js');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe(SCRIPT);
  });

  it('answers a missing asset with a 404 that is not cached', async () => {
    const res = await fetch(`${url}/assets/index-00000000.js`);
    expect(res.status).toBe(404);
    expect(res.headers.get('cache-control')).toBeNull();
    expect(await res.json()).toEqual({ error: 'Not found: GET /assets/index-00000000.js' });
  });

  it('refuses encoded or dotted paths with 400 before looking for a file', async () => {
    for (const path of ['/assets/%2e%2e/index.html', '/assets/..%2findex.html', '/assets/../index.html']) {
      expect((await rawRequest(url, path)).status).toBe(400);
    }
  });
});

describe('/healthz', () => {
  it('answers 200 with the mode', async () => {
    const res = await fetch(`${url}/healthz`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ status: 'ok', mode: 'simulator' });
  });
});

describe('security headers', () => {
  it('builds a strict CSP with the operator’s gateways in connect-src', () => {
    expect(contentSecurityPolicy(['https://gateway.example.com', 'https://*.corp.example'])).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' blob:; font-src 'self'; " +
        "connect-src 'self' https://gateway.example.com https://*.corp.example; object-src 'none'; " +
        "base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
  });

  it("allows the page's inline scripts by their hashes, and no other", () => {
    expect(contentSecurityPolicy([], [INDEX_SCRIPT_HASH])).toContain(
      `script-src 'self' ${INDEX_SCRIPT_HASH};`,
    );
    expect(inlineScriptHashes(INDEX)).toEqual([INDEX_SCRIPT_HASH]);
    expect(inlineScriptHashes('<script></script>')).toEqual([
      "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='",
    ]);
    // A script with attributes is a file (or not the build's): it gets no hash.
    expect(inlineScriptHashes('<script src="/a.js"></script><script type="module">x()</script>')).toEqual([]);
  });

  it.each([
    ['/', 200],
    ['/favicon.svg', 200],
    ['/assets/index-Ab12Cd34.js', 200],
    ['/healthz', 200],
    ['/v1/models', 200],
    ['/__sim/status', 200],
    ['/nowhere', 404],
    ['/v1/%2e%2e/x', 400],
  ])('are on every response: %s', async (path, status) => {
    const res = await rawRequest(url, path, { headers: { 'sec-fetch-site': 'same-origin' } });
    expect(res.status).toBe(status);
    expect(res.headers).toMatchObject(SECURITY_HEADERS);
  });
});

describe('Host check (DNS rebinding)', () => {
  it.each([
    ['localhost', 200],
    ['127.0.0.1', 200],
    ['chat.example.com', 200],
    ['evil.example', 403],
    ['192.168.1.5', 403],
  ])('Host %s: %i', async (name, status) => {
    const port = new URL(url).port;
    const res = await rawRequest(url, '/__sim/requests', { headers: { host: `${name}:${port}` } });
    expect(res.status).toBe(status);
    if (status === 403) expect(JSON.parse(res.body).error).toContain('HOPBASE_ALLOWED_HOSTS');
    expect(res.headers).toMatchObject(SECURITY_HEADERS);
  });
});

describe('simulator mode (no HOPBASE_BASE_URL)', () => {
  it('answers /v1 with the built-in simulator, streaming', async () => {
    const res = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...fromApp(url) },
      body: JSON.stringify({ model: 'sim-echo', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(200);
    const { text } = await readText(res);
    expect(frames(text).at(-1)).toEqual({ data: '[DONE]' });
    expect(await (await fetch(`${url}/__sim/status`)).json()).toMatchObject({ mode: 'simulator' });
  });
});
