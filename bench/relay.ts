import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { BenchProcesses, percentile } from './processes.ts';

/**
 * `npm run bench:relay`: what running answers on the server costs (docs/relay.md). The production server
 * (`node dist-server/server/main.js`, compiled first, its own process) proxies to a scripted gateway in
 * this process, whose every event carries the moment it was written (this process's clock): a page here
 * reads each event's arrival against it.
 *
 * 1. per event, gateway write → page arrival: straight from the gateway, through the server as before
 *    (no relay), and relayed (`x-hopbase-relay: 1`); the relay's cost is the difference;
 * 2. ANSWERS relayed answers held at once (a slow stream each, every page on its own connection): the
 *    server's resident memory per answer;
 * 3. with them running, a reload: the time from asking to resume (Last-Event-ID) to the first event.
 *
 * Settings: BENCH_ANSWERS (1000), BENCH_SAMPLES (40 answers of 50 events for step 1), BENCH_RESUMES (200).
 * BENCH_TEAM=1: team mode (PGlite in a temporary directory, one person named by the trusted proxy's header):
 * every event is also written to the database.
 */

const ANSWERS = Number(process.env.BENCH_ANSWERS ?? 1000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 40);
const RESUMES = Number(process.env.BENCH_RESUMES ?? 200);
const TEAM = process.env.BENCH_TEAM === '1';
const EVENTS = 50;
const PORT = 19_000 + Math.floor(Math.random() * 1000);
const serveUrl = `http://127.0.0.1:${PORT}`;
const processes = new BenchProcesses();

const rss = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ms = (value: number) => `${value.toFixed(2)} ms`;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const step = (what: string) => console.error(`… ${what} (load ${load()})`);

/**
 * The gateway: `model` "quick-N" writes N chat events 5 ms apart, "slow" one every 500 ms for ten
 * minutes; each event stamped with `performance.now()` when written.
 */
async function startGateway(): Promise<{ url: string; close(): void }> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      const model = (JSON.parse(body) as { model: string }).model;
      const [count, gap] = model === 'slow' ? [1200, 500] : [EVENTS, 5];
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let sent = 0;
      const timer = setInterval(() => {
        const ts = performance.now();
        res.write(
          `data: {"id":"c1","object":"chat.completion.chunk","model":"bench","ts":${ts},"choices":[{"index":0,"delta":{"content":"word "}}]}\n\n`,
        );
        if (++sent === count) {
          clearInterval(timer);
          res.end('data: [DONE]\n\n');
        }
      }, gap);
      res.on('close', () => clearInterval(timer));
    });
  });
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

const pageHeaders = {
  origin: serveUrl,
  'sec-fetch-site': 'same-origin',
  'content-type': 'application/json',
  ...(TEAM && { 'x-forwarded-email': 'bench@example.test' }),
};
let attempts = 0;

/** A call to `base`; `onText` with each chunk of the body as it arrives, and when. */
function call(
  base: string,
  model: string,
  relay: boolean,
  onText: (text: string, at: number) => void,
): Promise<{ req: ReturnType<typeof request>; attemptId: string }> {
  const { hostname, port } = new URL(base);
  const attemptId = `att_bench_${++attempts}`;
  const body = JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: 'Hi' }] });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        hostname,
        port,
        path: '/v1/chat/completions',
        method: 'POST',
        agent: false,
        headers: {
          ...pageHeaders,
          'content-length': Buffer.byteLength(body),
          ...(relay && {
            'x-hopbase-relay': '1',
            'x-hopbase-conversation': 'conv_bench',
            'x-hopbase-attempt': attemptId,
          }),
        },
      },
      (res) => {
        if (res.statusCode !== 200) {
          res.setEncoding('utf8');
          res.on('data', (text: string) => reject(new Error(`HTTP ${res.statusCode}: ${text}`)));
          return;
        }
        res.setEncoding('utf8');
        res.on('data', (text: string) => onText(text, performance.now()));
        resolve({ req, attemptId });
      },
    );
    req.on('error', () => {});
    req.end(body);
  });
}

/** Gateway write → arrival, per event, for `runs` answers; relayed stamps are read inside the pieces. */
async function perEvent(base: string, relay: boolean, runs: number): Promise<number[]> {
  const delays: number[] = [];
  for (let i = 0; i < runs; i++) {
    await new Promise<void>((resolve, reject) => {
      call(base, 'quick', relay, (text, at) => {
        for (const match of text.matchAll(/\\?"ts\\?":([\d.]+)/g)) delays.push(at - Number(match[1]));
        if (text.includes('[DONE]')) resolve();
      }).catch(reject);
    });
  }
  return delays;
}

async function main() {
  console.log(
    `node ${process.version}, ${TEAM ? 'team mode (PGlite)' : 'single-person mode'}, load average ${load()} at the start`,
  );
  step('compiling the server (tsconfig.server.json)');
  execFileSync('npx', ['tsc', '-p', 'tsconfig.server.json'], { stdio: 'inherit' });
  const gateway = await startGateway();
  const distDir = mkdtempSync(join(tmpdir(), 'hopbase-bench-dist-'));
  writeFileSync(join(distDir, 'index.html'), '<!doctype html><title>bench</title>');
  const dataDir = mkdtempSync(join(tmpdir(), 'hopbase-bench-data-'));
  const server = await processes.start(
    ['dist-server/server/main.js'],
    {
      HOST: '127.0.0.1',
      PORT: String(PORT),
      HOPBASE_BASE_URL: `${gateway.url}/v1`,
      HOPBASE_DIST_DIR: distDir,
      HOPBASE_MAX_REQUESTS: String(ANSWERS + 200),
      HOPBASE_MAX_REQUESTS_PER_CLIENT: String(ANSWERS + 200),
      ...(TEAM && { HOPBASE_AUTH: 'header', HOPBASE_DATA_DIR: dataDir }),
    },
    /HopBase Chat on/,
  );
  const pid = server.pid ?? 0;

  step('per event: direct, through the server, relayed');
  await perEvent(serveUrl, true, 5);
  await perEvent(serveUrl, false, 5);
  const direct = await perEvent(gateway.url, false, SAMPLES);
  const proxied = await perEvent(serveUrl, false, SAMPLES);
  const relayed = await perEvent(serveUrl, true, SAMPLES);

  await settle(1000);
  const before = rss(pid);
  step(`holding ${ANSWERS} relayed answers`);
  // Opened 100 at a time, each batch once every answer in it has its first event: a burst of 1,000 at once
  // in team mode keeps PGlite (in the server's thread) busy past the server's headers timeout.
  const held: { req: ReturnType<typeof request>; attemptId: string }[] = [];
  for (let batch = 0; batch < ANSWERS; batch += 100) {
    const opened = await Promise.all(
      Array.from({ length: Math.min(100, ANSWERS - batch) }, async () => {
        let first: () => void = () => {};
        const arrived = new Promise<void>((resolve) => {
          first = resolve;
        });
        const answer = await call(serveUrl, 'slow', true, () => first());
        await arrived;
        return answer;
      }),
    );
    held.push(...opened);
  }
  await settle(2000);
  const withAnswers = rss(pid);

  step(`${RESUMES} reloads with the answers running`);
  const resumes: number[] = [];
  for (let i = 0; i < RESUMES; i++) {
    const answer = held[i % held.length];
    if (!answer) break;
    answer.req.destroy();
    const t0 = performance.now();
    await new Promise<void>((resolve) => {
      const req = request(
        `${serveUrl}/api/answers/${answer.attemptId}/events`,
        { headers: { ...pageHeaders, 'last-event-id': '1' }, agent: false },
        (res) => {
          res.once('data', () => {
            resumes.push(performance.now() - t0);
            req.destroy();
            resolve();
          });
        },
      );
      req.on('error', () => {});
      req.end();
    });
  }

  console.log('');
  const line = (name: string, list: number[]) =>
    `${name}: p50 ${ms(percentile(list, 50))}, p99 ${ms(percentile(list, 99))} (${list.length} events)`;
  console.log(line('gateway write → page, direct', direct));
  console.log(line('gateway write → page, through the server (no relay)', proxied));
  console.log(line('gateway write → page, relayed', relayed));
  console.log(
    `relay's cost per event over the plain proxy: p50 ${ms(percentile(relayed, 50) - percentile(proxied, 50))}, p99 ${ms(percentile(relayed, 99) - percentile(proxied, 99))}`,
  );
  console.log(
    `${held.length} relayed answers held: server RSS ${(before / 2 ** 20).toFixed(1)} MB → ${(withAnswers / 2 ** 20).toFixed(1)} MB, ${((withAnswers - before) / held.length / 1024).toFixed(1)} kB per answer`,
  );
  console.log(
    `reload → first resumed event, with the answers running: p50 ${ms(percentile(resumes, 50))}, p99 ${ms(percentile(resumes, 99))} (${resumes.length})`,
  );
  console.log(`load average ${load()} at the end`);

  for (const answer of held) answer.req.destroy();
  gateway.close();
  rmSync(distDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
}

try {
  await main();
} finally {
  await processes.stopAll();
}
