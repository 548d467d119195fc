/**
 * Property: restoring any file, a backup mutated anywhere or random text, goes through to the database
 * without throwing and without hanging, answers with a refusal code or what it read (every entry it left
 * out said in words), and stores nothing the app cannot load: every record a restore wrote reads back,
 * hostile ids (`__proto__`, `constructor`) and request paths included.
 */
import 'fake-indexeddb/auto';
import fc from 'fast-check';
import { createStore, entries } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import { emptyTurn } from '../../core/index.ts';
import type { Conversation } from '../domain/types.ts';
import { readEverything } from '../storage/backupRecords.ts';
import { restoreBackup } from './backup.ts';
import { backupFormat, backupVersion } from './backupSchema.ts';
import { conversationPrefix, readConversationRecord, readRequestRecord, readTraceRecord } from './records.ts';

const seed = process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {};

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Strings a hostile file would put anywhere: ids named like built-in properties, paths that leave the host. */
const hostileStrings = [
  '__proto__',
  'constructor',
  'toString',
  'prototype',
  '',
  ' ',
  '@evil.example/steal',
  '//evil.example/v1/chat/completions',
  'https://evil.example/v1',
  '\u0000',
  '\uD800',
  'x'.repeat(10_000),
];

function conversation(id: string): Conversation {
  return {
    id,
    title: `Conversation ${id}`,
    createdAt: 1,
    updatedAt: 2,
    selected: { '': 'm2' },
    messages: [
      { id: 'm1', role: 'user', text: 'Hi', createdAt: 1, parentId: null },
      {
        id: 'm2',
        role: 'assistant',
        protocol: 'chat',
        model: 'sim-echo',
        source: { kind: 'gateway' },
        createdAt: 2,
        parentId: 'm1',
        attempts: [
          {
            id: 'a1',
            startedAt: 2,
            request: {
              url: '/v1/chat/completions',
              path: '/chat/completions',
              headers: { 'content-type': 'application/json' },
              body: { model: 'sim-echo', messages: [] },
            },
            sentHeaders: {},
            turn: { ...emptyTurn, status: 'complete', text: 'Hello' },
            httpError: null,
            trace: {
              headersAt: 1,
              firstOutputAt: 2,
              endedAt: 3,
              bytes: 10,
              outputEvents: 1,
              items: [{ t: 1, kind: 'event', event: 'message', data: '{"x":1}' }],
              raw: 'data: {"x":1}\n\n',
              truncated: false,
            },
          },
        ],
      },
    ],
  };
}

const backup = (ids: string[]): Json =>
  JSON.parse(
    JSON.stringify({
      format: backupFormat,
      version: backupVersion,
      createdAt: '2025-01-01T00:00:00.000Z',
      app: { name: 'hopbase-chat', version: '0' },
      conversations: ids.map(conversation),
      attachments: [],
      settings: { systemPrompt: 'Be brief', baseUrl: 'https://gw.example/v1' },
    }),
  ) as Json;

/** Every path in a JSON value, the root included. */
function paths(value: Json, prefix: (string | number)[] = []): (string | number)[][] {
  const out = [prefix];
  if (Array.isArray(value)) for (const [i, item] of value.entries()) out.push(...paths(item, [...prefix, i]));
  else if (value !== null && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) out.push(...paths(item, [...prefix, key]));
  return out;
}

const replacement: fc.Arbitrary<Json | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom(...hostileStrings),
  fc.constantFrom<Json>(null, true, 0, -1, 1e308, [], {}, [[]], { __proto__: { polluted: true } } as Json),
  fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>,
  // An object keyed by a hostile id, as JSON gives it (an own key, `__proto__` too).
  fc.constantFrom(...hostileStrings).map((key) => JSON.parse(`{${JSON.stringify(key)}:"m1"}`) as Json),
);

/** `value` with the value at `path` replaced (dropped when `undefined`); `__proto__` set as an own key. */
function mutated(value: Json, path: (string | number)[], next: Json | undefined): Json | undefined {
  if (path.length === 0) return next;
  const copy = structuredClone(value) as Record<string | number, Json>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, Json>;
  const last = path.at(-1)!;
  if (next === undefined) {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else
    Object.defineProperty(parent, last, {
      value: next,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return copy;
}

/** A backup of one to three conversations (some with hostile ids), changed at one to three places. */
const mutatedBackups: fc.Arbitrary<string> = fc
  .uniqueArray(fc.constantFrom('conv_1', '__proto__', 'constructor', 'toString', 'hasOwnProperty'), {
    minLength: 1,
    maxLength: 3,
  })
  .chain((ids) => {
    const valid = backup(ids);
    const step = (value: Json | undefined): fc.Arbitrary<Json | undefined> =>
      value === undefined
        ? fc.constant(undefined)
        : fc
            .tuple(fc.constantFrom(...paths(value)), replacement)
            .map(([path, next]) => mutated(value, path, next));
    return fc
      .integer({ min: 0, max: 3 })
      .chain((n) => {
        let out: fc.Arbitrary<Json | undefined> = fc.constant(valid);
        for (let i = 0; i < n; i++) out = out.chain(step);
        return out;
      })
      .map((value) => JSON.stringify(value) ?? '');
  });

const anyFile = fc.oneof(
  { weight: 4, arbitrary: mutatedBackups },
  { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)) },
  // Cut anywhere: a download that stopped.
  {
    weight: 1,
    arbitrary: fc.tuple(mutatedBackups, fc.nat()).map(([text, n]) => text.slice(0, n % (text.length + 1))),
  },
);

const refusalCodes = [
  'not_json',
  'not_backup',
  'conversation_file',
  'trace_file',
  'no_version',
  'no_conversations',
  'newer_version',
];

/** Within the time a person waits for a file: a restore that takes longer counts as hung. */
const patienceMs = 5_000;

let databases = 0;

describe('restoring any file', () => {
  it('never throws or hangs, says what it left out, and writes only records the app loads', async () => {
    await fc.assert(
      fc.asyncProperty(anyFile, async (text) => {
        const db = createStore(`hopbase-restore-fuzz-${++databases}`, 'state');
        const started = performance.now();
        const result = await restoreBackup(db, text, null);
        expect(performance.now() - started).toBeLessThan(patienceMs);
        const stored = await entries<IDBValidKey, unknown>(db);
        if (!result.ok) {
          expect(refusalCodes).toContain(result.refusal.code);
          expect(stored).toEqual([]);
          return;
        }
        for (const problem of result.problems) expect(problem.reason).toMatch(/\S/);
        // Nothing stored that the app cannot read back.
        const everything = await readEverything(db);
        expect(everything.unreadable).toEqual([]);
        for (const [key, value] of stored) {
          const name = String(key);
          if (name.startsWith(conversationPrefix)) {
            const read = readConversationRecord(name, value);
            expect(read.kind).toBe('conversation');
            const id = name.slice(conversationPrefix.length);
            expect(result.outcome.added).toContain(id);
          } else if (name.startsWith('trace:')) expect(typeof readTraceRecord(value)).not.toBe('string');
          else if (name.startsWith('request:')) expect(typeof readRequestRecord(value)).not.toBe('string');
          else expect(['settings', 'recent']).toContain(name);
        }
        // Every conversation read from the file is stored under its own id, and only those.
        expect(everything.conversations.map((c) => c.id).sort()).toEqual([...result.outcome.added].sort());
        // Nothing in the settings would send the key elsewhere: another gateway is only offered.
        expect(everything.settings.baseUrl ?? '').toBe('');
        expect(Object.getPrototypeOf(everything.settings)).toBe(Object.prototype);
      }),
      { ...seed, numRuns: 200 },
    );
  }, 60_000);
});
