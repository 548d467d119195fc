import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServerApp, type ServerApp } from './app.ts';
import { ConfigError, DEFAULT_LIMITS } from './config.ts';
import { pricesFromEnv } from './prices.ts';
import { fromApp, onePageDist } from './testing.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hopbase-prices-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function file(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

describe('pricesFromEnv', () => {
  it('no HOPBASE_PRICES before a real gateway: no table', () => {
    expect(pricesFromEnv({}, false, () => {})).toEqual({});
  });

  it('no HOPBASE_PRICES on the simulator: the simulator’s own prices', () => {
    const table = pricesFromEnv({}, true, () => {});
    expect(table['sim-echo']).toMatchObject({ input_cost_per_token: 1e-6, output_cost_per_token: 4e-6 });
    expect(table['sim-unpriced']).toBeUndefined();
  });

  it('reads the operator’s file as it is, leaving out wrong entries and saying which', async () => {
    const path = await file(
      'litellm.json',
      JSON.stringify({
        sample_spec: { max_input_tokens: 'max input tokens' },
        'gpt-4o': { input_cost_per_token: 2.5e-6, output_cost_per_token: 1e-5, mode: 'chat' },
        broken: { input_cost_per_token: 'cheap' },
      }),
    );
    const lines: string[] = [];
    const table = pricesFromEnv({ HOPBASE_PRICES: path }, true, (line) => lines.push(line));
    expect(table).toEqual({ 'gpt-4o': { input_cost_per_token: 2.5e-6, output_cost_per_token: 1e-5 } });
    expect(lines).toEqual([
      `HOPBASE_PRICES (${path}): 1 entry left out (broken: input_cost_per_token is "cheap" (expected a number)).`,
    ]);
  });

  it.each([
    [
      'a file that is not there',
      () => Promise.resolve(join(dir, 'missing.json')),
      /cannot be read \(ENOENT\)/,
    ],
    ['not JSON', () => file('text.json', 'gpt-4o: cheap'), /is not JSON/],
    ['a list', () => file('list.json', '[]'), /is not a JSON object of models/],
  ])('%s stops the server with a clear message', async (_, path, message) => {
    const env = { HOPBASE_PRICES: await path() };
    expect(() => pricesFromEnv(env, false, () => {})).toThrow(ConfigError);
    expect(() => pricesFromEnv(env, false, () => {})).toThrow(message);
  });
});

describe('GET /api/prices on the production server', () => {
  let app: ServerApp;
  let url: string;
  let dist: string;
  const prices = { 'gpt-4o': { input_cost_per_token: 2.5e-6, output_cost_per_token: 1e-5 } };
  beforeAll(async () => {
    dist = await onePageDist();
    app = createServerApp(
      {
        host: '127.0.0.1',
        port: 0,
        distDir: dist,
        connectSrc: [],
        allowedHosts: [],
        limits: DEFAULT_LIMITS,
        prices,
      },
      () => {},
    );
    url = await app.listen();
  });
  afterAll(async () => {
    await app.close();
    await rm(dist, { recursive: true, force: true });
  });

  it('serves the table to the app’s own page, revalidated on each load', async () => {
    const res = await fetch(`${url}/api/prices`, { headers: fromApp(url) });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(await res.json()).toEqual(prices);
  });

  it('not to another site’s page, and only to GET', async () => {
    const other = await fetch(`${url}/api/prices`, { headers: { origin: 'https://evil.example' } });
    expect(other.status).toBe(403);
    const post = await fetch(`${url}/api/prices`, { method: 'POST', headers: fromApp(url), body: '{}' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
  });
});
