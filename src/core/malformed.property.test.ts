/**
 * Property: an event of the wrong shape is reported as what it is. Every event of every fixture is mutated
 * (a field dropped, set to null, to another type, an object turned into a list…) and the stream read again:
 * `readTurn` never throws, never reports `interrupted` when the bytes did not stop early, and ends with a
 * well-formed Turn (strings where strings belong, numbers for usage). Each mutated event also goes through
 * `decode` then `reduce` directly, without `reduceOrFail`'s safety net: the decoders' shape checks must
 * catch everything the reducers would trip on.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adapters } from './protocols/index.ts';
import { MalformedEvent } from './protocols/json.ts';
import { readTurn } from './readTurn.ts';
import { createSseParser } from './sse/parser.ts';
import type { SseItem } from './sse/types.ts';
import { loadStreamFixtures, type StreamFixture, streamFromChunks } from './testing/fixtures.ts';
import { emptyTurn, type Protocol, type Turn } from './turn.ts';

const seed = process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {};
const encoder = new TextEncoder();

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Path = (string | number)[];
type Mutation = 'drop' | 'null' | 'number' | 'string' | 'boolean' | 'list' | 'object' | 'huge';
const mutations: Mutation[] = ['drop', 'null', 'number', 'string', 'boolean', 'list', 'object', 'huge'];

/**
 * Every path in a JSON value, the root (`[]`) included; of a list, its first and last elements only (the
 * ones between have the same shapes in every fixture).
 */
function paths(value: Json, prefix: Path = []): Path[] {
  const out: Path[] = [prefix];
  if (Array.isArray(value)) {
    const ends = value.length > 1 ? [0, value.length - 1] : value.length === 1 ? [0] : [];
    for (const i of ends) out.push(...paths(value[i]!, [...prefix, i]));
  } else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...prefix, k]));
  return out;
}

function replacement(kind: Mutation, old: Json): Json | undefined {
  switch (kind) {
    case 'drop':
      return undefined;
    case 'null':
      return null;
    case 'number':
      // On a number: one that is no position (`index`, `output_index`).
      return typeof old === 'number' ? -1.5 : 7;
    case 'string':
      // Another type only: a different string is another value, not another shape (`type` would name
      // an unknown event, which is ignored).
      return typeof old === 'string' ? undefined : 'x';
    case 'boolean':
      return true;
    case 'list':
      return Array.isArray(old) ? [[]] : old !== null && typeof old === 'object' ? [old] : [];
    case 'object':
      return old !== null && typeof old === 'object' && !Array.isArray(old) ? {} : { type: 'x' };
    case 'huge':
      return null; // written as the literal `1e400` by `mutateHuge`
  }
}

/** `value` with `kind` applied at `path`; null when that mutation does not apply there. */
function mutate(value: Json, path: Path, kind: Mutation): string | null {
  if (path.length === 0) {
    const next = replacement(kind, value);
    return next === undefined ? null : JSON.stringify(next);
  }
  const copy = structuredClone(value) as Record<string | number, Json>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, Json>;
  const last = path.at(-1)!;
  const next = replacement(kind, parent[last]!);
  if (next === undefined) {
    if (kind !== 'drop' || Array.isArray(parent)) return null;
    delete parent[last];
  } else parent[last] = next;
  return JSON.stringify(copy);
}

/** `value` with the number literal `1e400` (which parses to Infinity) at `path`. */
function mutateHuge(value: Json, path: Path): string {
  if (path.length === 0) return '1e400';
  const copy = structuredClone(value) as Record<string | number, Json>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, Json>;
  parent[path.at(-1)!] = '__HUGE__';
  return JSON.stringify(copy).replace('"__HUGE__"', '1e400');
}

function applyMutation(value: Json, path: Path, kind: Mutation): string | null {
  return kind === 'huge' ? mutateHuge(value, path) : mutate(value, path, kind);
}

/** A fixture as its SSE items, written back as SSE text (each item on its own). */
interface Parsed {
  fixture: StreamFixture;
  items: SseItem[];
  wire: string[];
  /** The turn before each item, through decode + reduce. */
  before: Turn[];
  /** The item that ended the turn (its terminal event or error), or -1. */
  terminal: number;
  reference: Turn;
}

function serialize(item: SseItem, data?: string): string {
  if (item.type === 'comment') return `: ${item.text}\n\n`;
  const lines = (data ?? item.data)
    .split('\n')
    .map((line) => `data: ${line}\n`)
    .join('');
  return `${item.event === 'message' ? '' : `event: ${item.event}\n`}${lines}\n`;
}

async function read(protocol: Protocol, wire: string[]): Promise<Turn> {
  return readTurn(protocol, streamFromChunks([encoder.encode(wire.join(''))]));
}

/** The bytes before and after item `index`, encoded once per index (many mutations share them). */
const around = new WeakMap<Parsed, Map<number, [Uint8Array, Uint8Array]>>();
function bytesAround(parsed: Parsed, index: number): [Uint8Array, Uint8Array] {
  let byIndex = around.get(parsed);
  if (!byIndex) {
    byIndex = new Map();
    around.set(parsed, byIndex);
  }
  let pair = byIndex.get(index);
  if (!pair) {
    pair = [
      encoder.encode(parsed.wire.slice(0, index).join('')),
      encoder.encode(parsed.wire.slice(index + 1).join('')),
    ];
    byIndex.set(index, pair);
  }
  return pair;
}

async function parse(fixture: StreamFixture): Promise<Parsed> {
  const items: SseItem[] = [];
  const parser = createSseParser((item) => items.push(item));
  parser.feed(new TextDecoder().decode(fixture.bytes));
  parser.end();
  const adapter = adapters[fixture.protocol];
  const before: Turn[] = [];
  let terminal = -1;
  let turn = emptyTurn;
  for (const [index, item] of items.entries()) {
    before.push(turn);
    if (item.type !== 'event' || turn.status !== 'streaming') continue;
    const decoded = adapter.decode(item.data, item.event);
    if (!(decoded instanceof MalformedEvent)) turn = adapter.reduce(turn, decoded);
    if (turn.status !== 'streaming') terminal = index;
  }
  const wire = items.map((item) => serialize(item));
  return { fixture, items, wire, before, terminal, reference: await read(fixture.protocol, wire) };
}

const statuses = ['complete', 'error', 'interrupted', 'aborted'];
const finishReasons = [null, 'stop', 'length', 'tool_calls', 'content_filter', 'refusal', 'other'];
const isCount = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
const isText = (v: unknown) => typeof v === 'string';
const isTextOrNull = (v: unknown) => v === null || typeof v === 'string';

/**
 * What is wrong with the Turn, if anything: every field has its type, and the flat strings agree with the
 * parts. (Plain checks, collected: thousands of turns are checked.)
 */
function problemsOf(turn: Turn): string[] {
  const out: string[] = [];
  const need = (ok: boolean, what: string) => {
    if (!ok) out.push(what);
  };
  need(statuses.includes(turn.status), `status ${turn.status}`);
  need(isText(turn.text) && isText(turn.reasoning) && isText(turn.refusal), 'flat strings');
  const calls = [];
  for (const part of turn.parts) {
    need(isText(part.key), `part key ${String(part.key)}`);
    if (part.kind === 'tool_call') {
      calls.push(part.call);
      need(isText(part.call.id) && isText(part.call.name) && isText(part.call.arguments), 'tool call fields');
    } else need(isText(part.text), `part text of ${part.kind}`);
  }
  need(
    calls.length === turn.toolCalls.length && calls.every((c, i) => c === turn.toolCalls[i]),
    'toolCalls match the tool_call parts',
  );
  const text = turn.parts.flatMap((p) => (p.kind === 'text' ? [p.text] : [])).join('');
  need(turn.text === text, 'text matches the text parts');
  if (turn.usage !== null)
    for (const [field, value] of Object.entries(turn.usage)) need(isCount(value), `usage.${field} ${value}`);
  need(finishReasons.includes(turn.finishReason), `finishReason ${String(turn.finishReason)}`);
  need(isTextOrNull(turn.rawFinishReason), 'rawFinishReason');
  need(isTextOrNull(turn.responseId) && isTextOrNull(turn.model), 'responseId, model');
  if (turn.error !== null) need(isText(turn.error.code) && isText(turn.error.message), 'error fields');
  else need(turn.status === 'complete', `status ${turn.status} without an error`);
  return out;
}

interface Case {
  parsed: Parsed;
  index: number;
  path: Path;
  kind: Mutation;
}

/** The mutated event's data, or null when the mutation does not apply. */
function mutatedData({ parsed, index, path, kind }: Case): string | null {
  const item = parsed.items[index];
  if (item?.type !== 'event' || item.data === '[DONE]') return null;
  return applyMutation(JSON.parse(item.data) as Json, path, kind);
}

async function check(c: Case): Promise<void> {
  const data = mutatedData(c);
  if (data === null) return;
  const { parsed, index } = c;
  const { protocol } = parsed.fixture;
  const item = parsed.items[index] as Extract<SseItem, { type: 'event' }>;
  const where = () =>
    `${parsed.fixture.name} event ${index} (${item.event}) ${c.kind} at ${JSON.stringify(c.path)}: ${data.slice(0, 200)}`;

  // The decoders catch every shape the reducer would trip on.
  const adapter = adapters[protocol];
  const decoded = adapter.decode(data, item.event);
  const before = parsed.before[index]!;
  let endsHere = true;
  if (!(decoded instanceof MalformedEvent) && before.status === 'streaming') {
    let after = before;
    try {
      after = adapter.reduce(before, decoded);
    } catch (error) {
      expect.fail(`${where()}: reduce threw ${String(error)}`);
    }
    endsHere = after.status !== 'streaming';
  }

  const [head, tail] = bytesAround(parsed, index);
  const body = streamFromChunks([head, encoder.encode(serialize(item, data)), tail]);
  const turn = await readTurn(protocol, body);
  const problems = problemsOf(turn);
  if (problems.length > 0) expect.fail(`${where()}: ${problems.join('; ')}`);
  // The bytes all arrived: the stream can only have been cut if it was cut without the mutation too, or
  // if the mutation turned its last event (Chat's error chunk) into a valid one that does not end it.
  const lastEventDefused = index === parsed.terminal && !endsHere;
  if (parsed.reference.status !== 'interrupted' && !lastEventDefused && turn.status === 'interrupted')
    expect.fail(`${where()}: read as interrupted (${turn.error?.message})`);
}

const fixtures = loadStreamFixtures();

describe('a mutated event never reads as a cut connection', () => {
  it('every fixture reads back the same from its re-serialized items', async () => {
    for (const fixture of fixtures) {
      const parsed = await parse(fixture);
      expect(parsed.reference).toStrictEqual(
        await readTurn(fixture.protocol, streamFromChunks([fixture.bytes])),
      );
    }
  });

  // Exhaustive where it matters most: the first event of each type in each fixture, every path, every mutation.
  for (const fixture of fixtures) {
    it(`${fixture.name}: every mutation of the first event of each type`, async () => {
      const parsed = await parse(fixture);
      const seen = new Set<string>();
      for (let index = 0; index < parsed.items.length; index++) {
        const item = parsed.items[index]!;
        if (item.type !== 'event' || item.data === '[DONE]') continue;
        let value: Json;
        try {
          value = JSON.parse(item.data) as Json;
        } catch {
          continue;
        }
        const type = `${item.event}:${(value as { type?: unknown })?.type}`;
        if (seen.has(type)) continue;
        seen.add(type);
        for (const path of paths(value))
          for (const kind of mutations) await check({ parsed, index, path, kind });
      }
    }, 60_000);
  }

  it('random mutations of any event, anywhere (fast-check)', async () => {
    const all = await Promise.all(fixtures.map(parse));
    const arbitrary = fc
      .record({
        f: fc.nat({ max: all.length - 1 }),
        e: fc.nat(),
        p: fc.nat(),
        kind: fc.constantFrom(...mutations),
      })
      .map(({ f, e, p, kind }): Case | null => {
        const parsed = all[f]!;
        const events = parsed.items.flatMap((item, i) =>
          item.type === 'event' && item.data !== '[DONE]' ? [i] : [],
        );
        if (events.length === 0) return null;
        const index = events[e % events.length]!;
        let value: Json;
        try {
          value = JSON.parse((parsed.items[index] as { data: string }).data) as Json;
        } catch {
          return null;
        }
        const options = paths(value);
        return { parsed, index, path: options[p % options.length]!, kind };
      });
    await fc.assert(
      fc.asyncProperty(arbitrary, async (c) => {
        if (c !== null) await check(c);
      }),
      { numRuns: 1500, ...seed, endOnFailure: true },
    );
  }, 60_000);
});
