/**
 * Test-only loader for the data in `<repo>/fixtures/`: the recorded and hand-made SSE streams, the SSE
 * framing vectors, the recorded HTTP error bodies and `reduced-summaries.json` (provenance of every file:
 * `fixtures/README.md` and `fixtures/MANIFEST.json`). Tests find every fixture through this module.
 * `HOPBASE_FIXTURES_DIR` points it at another copy of the same layout.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Protocol } from '../turn.ts';

/** Repository root, found from this file's location (`src/core/testing/fixtures.ts`). */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const fixturesDir = process.env.HOPBASE_FIXTURES_DIR
  ? path.resolve(process.env.HOPBASE_FIXTURES_DIR)
  : path.join(repoRoot, 'fixtures');

/** Absolute path of a fixture given by its name relative to the fixtures dir (`chat/openai-text.sse`). */
function fixturePath(name: string): string {
  assertFixturesDir();
  const file = path.join(fixturesDir, name);
  if (!existsSync(file)) throw new Error(`no fixture ${name} under ${fixturesDir}`);
  return file;
}

/** A fixture's bytes, as a fresh `Uint8Array` of its own (safe to transfer or detach). */
export function fixtureBytes(name: string): Uint8Array {
  return new Uint8Array(readFileSync(fixturePath(name)));
}

/** A fixture's text, decoded as UTF-8. */
export function fixtureText(name: string): string {
  return readFileSync(fixturePath(name), 'utf8');
}

/** A JSON fixture, parsed (e.g. `http-errors/openai-400-param-code-null.json`). */
export function fixtureJson<T = unknown>(name: string): T {
  return JSON.parse(fixtureText(name)) as T;
}

/** The file names (not paths) directly inside a fixtures subdirectory, sorted: `fixtureFiles('http-errors')`. */
export function fixtureFiles(dir: string): string[] {
  return readdirSync(fixturePath(dir)).sort();
}

/** A recorded (or hand-made) protocol stream. */
export interface StreamFixture {
  /** Path relative to the fixtures dir, e.g. `chat/openai-parallel-tool-calls.sse`. */
  name: string;
  protocol: Protocol;
  synthetic: boolean;
  file: string;
  bytes: Uint8Array;
}

/** One event as listed in a framing fixture's `.expected.json`. */
export interface ExpectedSseEvent {
  event: string;
  data: string;
  lastEventId: string;
}

export interface FramingFixture {
  /** e.g. `synthetic/framing/crlf.sse` */
  name: string;
  file: string;
  bytes: Uint8Array;
  expected: ExpectedSseEvent[];
}

/** Directory (relative to the fixtures dir) → protocol. */
const PROTOCOL_DIRS: ReadonlyArray<readonly [string, Protocol, boolean]> = [
  ['chat', 'chat', false],
  ['synthetic/chat', 'chat', true],
  ['responses', 'responses', false],
  ['synthetic/responses', 'responses', true],
  ['anthropic', 'messages', false],
  ['synthetic/anthropic', 'messages', true],
];

function assertFixturesDir(): void {
  if (!existsSync(fixturesDir)) {
    throw new Error(
      `fixtures not found at ${fixturesDir}: expected <repo>/fixtures, or a HOPBASE_FIXTURES_DIR that exists.`,
    );
  }
}

function listSse(dir: string): string[] {
  const abs = path.join(fixturesDir, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs)
    .filter((f) => f.endsWith('.sse'))
    .sort();
}

function readBytes(file: string): Uint8Array {
  const buf = readFileSync(file);
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

let streamCache: StreamFixture[] | undefined;
let framingCache: FramingFixture[] | undefined;

/** Every protocol stream fixture (recorded and synthetic, framing vectors excluded), sorted by name. */
export function loadStreamFixtures(): StreamFixture[] {
  if (streamCache) return streamCache;
  assertFixturesDir();
  const out: StreamFixture[] = [];
  for (const [dir, protocol, synthetic] of PROTOCOL_DIRS) {
    for (const f of listSse(dir)) {
      const file = path.join(fixturesDir, dir, f);
      out.push({ name: `${dir}/${f}`, protocol, synthetic, file, bytes: readBytes(file) });
    }
  }
  if (out.length === 0) throw new Error(`no .sse fixtures under ${fixturesDir}`);
  streamCache = out;
  return out;
}

/** The `synthetic/framing/*.sse` vectors with their expected event lists. */
export function loadFramingFixtures(): FramingFixture[] {
  if (framingCache) return framingCache;
  assertFixturesDir();
  const dir = 'synthetic/framing';
  const out: FramingFixture[] = [];
  for (const f of listSse(dir)) {
    const file = path.join(fixturesDir, dir, f);
    const expectedFile = file.replace(/\.sse$/, '.expected.json');
    if (!existsSync(expectedFile)) throw new Error(`framing fixture ${f} has no .expected.json`);
    const expected = JSON.parse(readFileSync(expectedFile, 'utf8')) as ExpectedSseEvent[];
    out.push({ name: `${dir}/${f}`, file, bytes: readBytes(file), expected });
  }
  if (out.length === 0) throw new Error(`no framing fixtures under ${path.join(fixturesDir, dir)}`);
  framingCache = out;
  return out;
}

/** `reduced-summaries.json`: a reference reducer's view of each non-framing fixture (a cross-check only). */
export function loadReducedSummaries(): Record<string, Record<string, unknown>> {
  assertFixturesDir();
  return JSON.parse(readFileSync(path.join(fixturesDir, 'reduced-summaries.json'), 'utf8')) as Record<
    string,
    Record<string, unknown>
  >;
}

/**
 * Cuts `bytes` at the given offsets (any order, duplicates and out-of-range values ignored).
 * No offsets → one chunk. Chunks are copies, so a consumer may keep or transfer them.
 */
export function splitBytes(bytes: Uint8Array, offsets: readonly number[] = []): Uint8Array[] {
  const cuts = [...new Set(offsets.filter((o) => o > 0 && o < bytes.length))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const cut of cuts) {
    chunks.push(bytes.slice(start, cut));
    start = cut;
  }
  chunks.push(bytes.slice(start));
  return chunks.filter((c) => c.length > 0);
}

/** Offsets that cut `length` bytes into chunks of exactly `size` bytes (size 1 → every byte on its own). */
export function everyNBytes(length: number, size = 1): number[] {
  const out: number[] = [];
  for (let i = size; i < length; i += size) out.push(i);
  return out;
}

/** A body stream that delivers `chunks` one `read()` at a time. */
export function streamFromChunks(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[i++];
      if (chunk === undefined) controller.close();
      else controller.enqueue(chunk);
    },
  });
}

/** A body stream of `bytes` split at the given offsets (see `splitBytes`). */
export function streamFromBytes(
  bytes: Uint8Array,
  offsets: readonly number[] = [],
): ReadableStream<Uint8Array> {
  return streamFromChunks(splitBytes(bytes, offsets));
}
