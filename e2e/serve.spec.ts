import { expect, type Page, test } from '@playwright/test';
import { inlineScriptHashes } from '../server/security.ts';
import {
  artifactsDir,
  choose,
  openApp,
  protocolKeys,
  protocolLabels,
  send,
  setSettings,
  uniqueText,
  waitForAnswer,
} from './helpers.ts';
import { serveKey, serveUrl, simUrl } from './serve.ts';

// The production server (`npm run serve`, see playwright.config.ts) proxying /v1 to a simulator that
// requires a key: the app works under the server's strict CSP with no violation, and the key the server
// adds never reaches anything the page can see.

test.use({ baseURL: serveUrl });

interface Violation {
  directive: string;
  blocked: string;
  source: string;
  sample: string;
}

/** Records every `securitypolicyviolation` from the first script on (init scripts are not subject to CSP). */
async function recordViolations(page: Page): Promise<() => Promise<Violation[]>> {
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content[- ]Security[- ]Policy/i.test(message.text())) {
      consoleErrors.push(message.text());
    }
  });
  await page.addInitScript(() => {
    const seen: unknown[] = [];
    Object.defineProperty(window, '__cspViolations', { value: seen });
    document.addEventListener('securitypolicyviolation', (e) => {
      seen.push({
        directive: e.effectiveDirective,
        blocked: e.blockedURI,
        source: e.sourceFile,
        sample: e.sample,
      });
    });
  });
  return async () => {
    const violations = await page.evaluate(
      () => (window as unknown as { __cspViolations: Violation[] }).__cspViolations,
    );
    // Chromium logs each violation to the console too: a second witness that none was missed.
    if (violations.length === 0) expect(consoleErrors).toEqual([]);
    return violations;
  };
}

/** Everything the server sent the page: status, headers and body of every response. */
function recordResponses(page: Page): () => Promise<string> {
  const captured: Promise<string>[] = [];
  page.on('response', (response) => {
    captured.push(
      (async () => {
        const headers = await response.allHeaders();
        const body = await response.body().then(
          (b) => b.toString('utf8'),
          () => '',
        );
        return `${response.status()} ${response.url()}\n${JSON.stringify(headers)}\n${body}`;
      })(),
    );
  });
  return async () => (await Promise.all(captured)).join('\n');
}

/** What the page holds: its DOM, both storages, every IndexedDB record, its cookies. */
async function pageState(page: Page): Promise<string> {
  const inPage = await page.evaluate(async () => {
    const storage = (s: Storage) => JSON.stringify(Object.fromEntries(Object.entries(s)));
    const databases = await indexedDB.databases();
    const records: unknown[] = [];
    for (const { name } of databases) {
      if (!name) continue;
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      for (const store of Array.from(db.objectStoreNames)) {
        const values = await new Promise<unknown[]>((resolve, reject) => {
          const all = db.transaction(store).objectStore(store).getAll();
          all.onsuccess = () => resolve(all.result);
          all.onerror = () => reject(all.error);
        });
        records.push(...values);
      }
      db.close();
    }
    return [
      document.documentElement.outerHTML,
      storage(localStorage),
      storage(sessionStorage),
      JSON.stringify(records),
    ].join('\n');
  });
  return `${inPage}\n${JSON.stringify(await page.context().cookies())}`;
}

test('chat on all three protocols through the production server: no CSP violation, the key never shown', async ({
  page,
  request,
}) => {
  const violations = await recordViolations(page);
  const responses = recordResponses(page);
  const sentHeaders: Record<string, string>[] = [];
  page.on('request', (r) => sentHeaders.push(r.headers()));

  await openApp(page);
  for (const protocol of protocolKeys) {
    await choose(page, protocol, 'sim-echo');
    const turn = await waitForAnswer(await send(page, uniqueText(`Served by npm run serve via ${protocol}`)));
    await expect(turn).toContainText(protocolLabels[protocol]);
    await expect(turn.getByTestId('turn-usage')).toHaveText(/^[1-9][\d,]* in · [1-9][\d,]* out/);
    // The lazily loaded markdown chunk, its styles and the highlighter, all under the CSP.
    await expect(turn.getByRole('table')).toBeVisible();
    await expect(turn.locator('code.hljs [class^="hljs-"]').first()).toBeVisible();
  }
  // The inspector's virtualized list positions rows with inline styles (set through the CSSOM).
  await page.getByTestId('assistant-turn').last().getByRole('button', { name: 'Inspect' }).click();
  const inspector = page.getByRole('complementary', { name: 'Inspector' });
  await expect(inspector.getByRole('listitem').first()).toBeVisible();
  await page.screenshot({ path: `${artifactsDir}/serve-journey.png` });

  expect(await violations()).toEqual([]);

  // The simulator refuses requests without the key; these answers exist, so the server added it.
  expect((await request.get(`${simUrl}/v1/models`)).status()).toBe(401);
  const upstreamLog = (await (await request.get(`${simUrl}/__sim/requests`)).json()) as {
    body: unknown;
    headers: Record<string, string>;
  }[];
  const ours = upstreamLog.filter((r) => JSON.stringify(r.body).includes('Served by npm run serve'));
  expect(ours).toHaveLength(3);
  for (const r of ours)
    expect(r.headers).toMatchObject({ authorization: '[redacted]', 'x-api-key': '[redacted]' });

  // ...and nothing the page sent, received or keeps contains it.
  expect(sentHeaders.some((h) => 'authorization' in h || 'x-api-key' in h)).toBe(false);
  const seen = `${await responses()}\n${await pageState(page)}`;
  expect(seen).toContain('Served by npm run serve');
  expect(seen).not.toContain(serveKey);
});

test('the production server: security headers, caching, compression, /healthz, no open relay', async ({
  request,
}) => {
  const index = await request.get('/');
  expect(index.status()).toBe(200);
  const headers = index.headers();
  const page = await index.text();
  // The one inline script (the last screen's, src/app/firstScreen), allowed by its hash and nothing else.
  const [inline, ...more] = inlineScriptHashes(page);
  expect(inline).toMatch(/^'sha256-[\w+/]{43}='$/);
  expect(more).toEqual([]);
  expect(headers['content-security-policy']).toBe(
    `default-src 'self'; script-src 'self' ${inline}; style-src 'self'; img-src 'self' blob:; font-src 'self'; connect-src 'self' ${simUrl}; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`,
  );
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['cache-control']).toBe('no-cache');

  const script = /<script type="module" async crossorigin src="(\/assets\/[^"]+\.js)"/.exec(page)?.[1];
  expect(script).toBeDefined();
  const asset = await request.get(script ?? '', { headers: { 'accept-encoding': 'br, gzip' } });
  expect(asset.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(asset.headers()['content-encoding']).toBe('br');

  const health = await request.get('/healthz');
  expect(await health.json()).toEqual({ status: 'ok', mode: 'gateway' });

  // Not the app's page (no Origin), not on the allow-list, or from another site: refused, key unused.
  expect((await request.get('/v1/models')).status()).toBe(403);
  expect((await request.post('/v1/embeddings', { headers: { origin: serveUrl }, data: {} })).status()).toBe(
    404,
  );
  const crossSite = await request.post('/v1/chat/completions', {
    headers: { origin: 'https://evil.example' },
    data: { model: 'sim-echo', messages: [{ role: 'user', content: 'x' }] },
  });
  expect(crossSite.status()).toBe(403);
  expect(await crossSite.text()).not.toContain(serveKey);
});

test('direct-to-gateway mode works towards an allowed gateway; CSP blocks any other', async ({ page }) => {
  const violations = await recordViolations(page);
  await openApp(page);
  await choose(page, 'chat', 'sim-echo');

  // Listed in HOPBASE_CONNECT_SRC: the browser calls the gateway itself, with the key from Settings.
  await page.getByRole('button', { name: 'Settings' }).click();
  await page
    .getByRole('dialog', { name: 'Settings' })
    .getByRole('textbox', { name: 'API key' })
    .fill(serveKey);
  await page.getByRole('dialog', { name: 'Settings' }).getByRole('button', { name: 'Close' }).click();
  await setSettings(page, { 'Gateway base URL': `${simUrl}/v1` });
  const direct = await waitForAnswer(await send(page, uniqueText('Straight to the gateway')));
  await expect(direct.getByTestId('turn-usage')).toBeVisible();
  expect(await violations()).toEqual([]);

  // The same simulator under another origin, not listed: blocked by connect-src, reported as a violation.
  const blockedBase = simUrl.replace('127.0.0.1', 'localhost');
  await setSettings(page, { 'Gateway base URL': `${blockedBase}/v1` });
  const blocked = await send(page, uniqueText('Towards a gateway the operator did not allow'));
  const alert = blocked.getByRole('alert');
  await expect(alert).toContainText('This page may not connect to that gateway', { timeout: 20_000 });
  await expect(alert).toContainText('HOPBASE_CONNECT_SRC');
  // Not worth retrying on its own: no countdown to an automatic attempt.
  await expect(blocked.getByText(/Retrying automatically/)).toHaveCount(0);
  await expect
    .poll(async () => (await violations()).map((v) => [v.directive, new URL(v.blocked).origin]))
    .toContainEqual(['connect-src', blockedBase]);
});

test('who is here is asked once, while the page’s scripts still load (the first screen waits for it)', async ({
  page,
}) => {
  const asked: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/me') asked.push(request.url());
  });
  await openApp(page);
  const timing = await page.evaluate(() => {
    const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const me = entries.find((e) => new URL(e.name).pathname === '/api/me');
    const entry = entries.find(
      (e) => e.initiatorType === 'script' && /\/assets\/index-[^/]+\.js$/.test(e.name),
    );
    return { meStart: me?.startTime ?? null, scriptEnd: entry?.responseEnd ?? null };
  });
  // One request: the app's own fetch took the preloaded answer instead of asking again.
  expect(asked).toHaveLength(1);
  expect(timing.meStart).not.toBeNull();
  expect(timing.scriptEnd).not.toBeNull();
  expect(timing.meStart!).toBeLessThan(timing.scriptEnd!);
});
