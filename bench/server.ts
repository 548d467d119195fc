import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type IncomingMessage, request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { BenchProcesses, percentile } from './processes.ts';

/**
 * `npm run bench:server`: the production server (`node dist-server/server/main.js`, compiled first)
 * proxying to a standalone simulator (`simulator/main.ts`, its own process), driven over real sockets
 * from this process. Three processes, so the server's memory and CPU are its own:
 *
 * 1. first-byte latency, the simulator called directly and through the server in alternation, one at a
 *    time on kept-alive connections (what the proxy adds is the difference of the percentiles);
 * 2. STREAMS concurrent `sim-long` answers opened through the server, each on its own connection, held
 *    until every one has its first event: streams held, the server's resident memory per open stream
 *    (its RSS with them open, less its RSS before, warmed up), then the latency of step 1 again under
 *    that load, then the server's CPU time per MB it relayed while they streamed for HOLD_S seconds.
 *
 * Settings: BENCH_STREAMS (1000), BENCH_HOLD_S (20), BENCH_SAMPLES (300), BENCH_DELTA_MS (the
 * simulator's pause between tokens, 200: 1,000 streams make 5,000 events a second). BENCH_TEAM=1: the
 * server in team mode (one person, named by the trusted proxy's header; PGlite in a temporary directory),
 * with per-person limits set too high to refuse, so that every call pays for their checks and every
 * answer is read for its usage and recorded: against a run without it, what team mode costs a stream.
 */

const STREAMS = Number(process.env.BENCH_STREAMS ?? 1000);
const HOLD_S = Number(process.env.BENCH_HOLD_S ?? 20);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 300);
const DELTA_MS = Number(process.env.BENCH_DELTA_MS ?? 200);
const TEAM = process.env.BENCH_TEAM === '1';
const KEY = 'sk-bench-server-5e1d7c3a';
const SIM_PORT = 18_000 + Math.floor(Math.random() * 1000);
const SERVE_PORT = SIM_PORT + 1000;
const simUrl = `http://127.0.0.1:${SIM_PORT}`;
const serveUrl = `http://127.0.0.1:${SERVE_PORT}`;

const processes = new BenchProcesses();

/** The process's resident memory in bytes and CPU time (user + system) in ms, from /proc. */
function usage(pid: number): { rss: number; cpuMs: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rss = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
  // Fields 14 and 15 of /proc/<pid>/stat, after the command name in parentheses.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  const ticks = Number(fields[11]) + Number(fields[12]);
  return { rss, cpuMs: (ticks * 1000) / 100 };
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Call {
  base: string;
  headers: Record<string, string>;
}

const direct: Call = { base: simUrl, headers: { authorization: `Bearer ${KEY}` } };
const proxied: Call = {
  base: serveUrl,
  headers: {
    origin: serveUrl,
    'sec-fetch-site': 'same-origin',
    ...(TEAM && { 'x-forwarded-email': 'bench@example.test' }),
  },
};

function post(call: Call, model: string, onResponse: (res: IncomingMessage) => void) {
  const { hostname, port } = new URL(call.base);
  const body = JSON.stringify({
    model,
    stream: true,
    messages: [{ role: 'user', content: 'Plan a small garden, step by step.' }],
  });
  const req = request(
    {
      hostname,
      port,
      path: '/v1/chat/completions',
      method: 'POST',
      // A connection of its own for every call, both ways, so neither gains from a warm one.
      agent: false,
      headers: {
        ...call.headers,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
      },
    },
    onResponse,
  );
  req.end(body);
  return req;
}

/**
 * Milliseconds from sending the request to the first byte of the answer's body (its first event), on a
 * new connection; the call is then cut, as a person who stops the answer does (so through the server,
 * the gateway's connection is not reused either: its setup is in the figure).
 */
function firstByte(call: Call): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = post(call, 'sim-echo', (res) => {
      if (res.statusCode !== 200) reject(new Error(`${call.base}: HTTP ${res.statusCode}`));
      res.once('data', () => {
        resolve(performance.now() - t0);
        req.destroy();
      });
    });
    const t0 = performance.now();
    req.on('error', () => {});
  });
}

/** Alternating direct and proxied calls, each going first in turn; percentiles of each. */
async function latency(samples: number) {
  const times = { direct: [] as number[], proxied: [] as number[] };
  for (let i = 0; i < samples; i++) {
    const order = i % 2 === 0 ? (['direct', 'proxied'] as const) : (['proxied', 'direct'] as const);
    for (const which of order) times[which].push(await firstByte(which === 'direct' ? direct : proxied));
  }
  const stats = (list: number[]) => {
    const sorted = [...list].sort((a, b) => a - b);
    return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
  };
  const d = stats(times.direct);
  const p = stats(times.proxied);
  return { direct: d, proxied: p, added: { p50: p.p50 - d.p50, p99: p.p99 - d.p99 } };
}

interface Held {
  opened: Promise<boolean>;
  bytes: number;
  ended: boolean;
  req: ReturnType<typeof request>;
}

/** One long answer through the server on a connection of its own; `opened` once its first bytes came. */
function hold(): Held {
  let resolveOpened: (ok: boolean) => void = () => {};
  const held: Held = {
    opened: new Promise((resolve) => {
      resolveOpened = resolve;
    }),
    bytes: 0,
    ended: false,
    req: post(proxied, 'sim-long', (res) => {
      if (res.statusCode !== 200) resolveOpened(false);
      res.on('data', (chunk: Buffer) => {
        held.bytes += chunk.length;
        resolveOpened(true);
      });
      res.on('close', () => {
        held.ended = true;
        resolveOpened(false);
      });
    }),
  };
  held.req.on('error', () => {
    held.ended = true;
    resolveOpened(false);
  });
  return held;
}

/** Where the run is, on stderr: a run on a busy machine takes minutes. */
const step = (what: string) => console.error(`… ${what} (load ${load()})`);

const ms = (value: number) => `${value.toFixed(2)} ms`;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

async function main() {
  console.log(
    `node ${process.version}, ${TEAM ? 'team mode (limits checked, usage recorded)' : 'single-person mode'}, load average ${load()} at the start`,
  );
  step('compiling the server (tsconfig.server.json)');
  execFileSync('npx', ['tsc', '-p', 'tsconfig.server.json'], { stdio: 'inherit' });
  step('starting the simulator and the server');
  const distDir = mkdtempSync(join(tmpdir(), 'hopbase-bench-dist-'));
  writeFileSync(join(distDir, 'index.html'), '<!doctype html><title>bench</title>');
  const dataDir = mkdtempSync(join(tmpdir(), 'hopbase-bench-data-'));
  const team = {
    HOPBASE_AUTH: 'header',
    HOPBASE_DATA_DIR: dataDir,
    HOPBASE_USER_REQUESTS_PER_MINUTE: '1000000',
    HOPBASE_USER_TOKENS_PER_DAY: '1000000000000',
  };

  await processes.start(
    ['--import', 'tsx', 'simulator/main.ts'],
    {
      HOPBASE_SIM_PORT: String(SIM_PORT),
      HOPBASE_SIM_HOST: '127.0.0.1',
      HOPBASE_SIM_API_KEY: KEY,
      HOPBASE_SIM_DELTA_MS: String(DELTA_MS),
      HOPBASE_SIM_KEEPALIVE_MS: '15000',
    },
    /listening on/,
  );
  const server = await processes.start(
    ['dist-server/server/main.js'],
    {
      HOST: '127.0.0.1',
      PORT: String(SERVE_PORT),
      HOPBASE_BASE_URL: `${simUrl}/v1`,
      HOPBASE_API_KEY: KEY,
      HOPBASE_DIST_DIR: distDir,
      HOPBASE_MAX_REQUESTS: String(STREAMS + 100),
      HOPBASE_MAX_REQUESTS_PER_CLIENT: String(STREAMS + 100),
      ...(TEAM && team),
    },
    /HopBase Chat on/,
  );
  const pid = server.pid ?? 0;

  step('first-byte latency, idle');
  // Warm-up: both paths' code optimised and connections open before anything is measured.
  await latency(50);
  const idle = await latency(SAMPLES);
  await settle(1000);
  const before = usage(pid);

  step(`opening ${STREAMS} streams`);
  const streams = Array.from({ length: STREAMS }, () => hold());
  const opened = await Promise.all(streams.map((s) => s.opened));
  const held = opened.filter(Boolean).length;
  await settle(2000);
  const withStreams = usage(pid);
  step('first-byte latency with the streams open');
  const loaded = await latency(Math.min(SAMPLES, 100));

  step(`relaying for ${HOLD_S} s`);
  const bytes0 = streams.reduce((sum, s) => sum + s.bytes, 0);
  const cpu0 = usage(pid).cpuMs;
  await settle(HOLD_S * 1000);
  const relayed = streams.reduce((sum, s) => sum + s.bytes, 0) - bytes0;
  const cpuMs = usage(pid).cpuMs - cpu0;
  const stillOpen = streams.filter((s) => !s.ended).length;
  const after = usage(pid);

  console.log('');
  console.log(
    `streams opened through the server: ${held} of ${STREAMS}; still open after ${HOLD_S} s: ${stillOpen}`,
  );
  console.log(
    `server RSS: ${(before.rss / 2 ** 20).toFixed(1)} MB before, ${(withStreams.rss / 2 ** 20).toFixed(1)} MB with the streams open, ${(after.rss / 2 ** 20).toFixed(1)} MB at the end`,
  );
  console.log(
    `resident memory per open stream: ${((withStreams.rss - before.rss) / held / 1024).toFixed(1)} kB`,
  );
  console.log(
    `relayed ${(relayed / 2 ** 20).toFixed(2)} MB in ${HOLD_S} s using ${cpuMs.toFixed(0)} ms of the server's CPU: ${(cpuMs / (relayed / 2 ** 20)).toFixed(1)} ms CPU per MB (${((cpuMs / (HOLD_S * 1000)) * 100).toFixed(1)} % of one core)`,
  );
  for (const [name, run] of [
    [`idle (${SAMPLES} pairs)`, idle],
    [`with ${held} streams open (${Math.min(SAMPLES, 100)} pairs)`, loaded],
  ] as const) {
    console.log(
      `first byte, ${name}: direct p50 ${ms(run.direct.p50)} p99 ${ms(run.direct.p99)}; through the server p50 ${ms(run.proxied.p50)} p99 ${ms(run.proxied.p99)}; added p50 ${ms(run.added.p50)} p99 ${ms(run.added.p99)}`,
    );
  }
  console.log(`load average ${load()} at the end`);

  for (const s of streams) s.req.destroy();
  rmSync(distDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
}

try {
  await main();
} finally {
  await processes.stopAll();
}
