/**
 * Property: whatever the database, a backup or an imported file holds, each reader answers, at once and
 * with a clear reason or code, and what it accepts is well formed. Random JSON goes through every reader,
 * and so does every mutation of a valid record, backup or recording (a field dropped, made null, given
 * another type, an object turned into a list…): no reader throws (the trace import throws its message, as
 * the import form wants), a refusal is one of its codes, a reason says `<field>: expected <what>`, and
 * whatever is read passes this file's own checks, written apart from the schemas.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emptyTurn, numberParameters, protocols, reasoningLevels } from '../../core/index.ts';
import { readRecording } from '../../session/replay.ts';
import type { Attempt, ChatMessage, Conversation, TraceItem } from '../domain/types.ts';
import { defaultSettings } from '../stores/settingsStore.ts';
import { readBackup } from './backup.ts';
import { readConversationRecord, readRequestRecord, readSettingsRecord, readTraceRecord } from './records.ts';
import { readJsonTrace } from './traceExport.ts';

const seed = process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {};

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Path = (string | number)[];

// ---- Valid inputs --------------------------------------------------------------------------------------

const items: TraceItem[] = [
  { t: 3, kind: 'comment', event: '', data: 'hopbase-keepalive' },
  { t: 5, kind: 'event', event: 'message', data: '{"delta":"Hi"}' },
];

const attempt: Attempt = {
  id: 'att_1',
  startedAt: 2,
  request: {
    url: '/v1/messages',
    path: '/messages',
    headers: { 'content-type': 'application/json' },
    body: { model: 'claude-x', messages: [] },
  },
  sentHeaders: { 'x-api-key': '[redacted]' },
  turn: {
    ...emptyTurn,
    status: 'error',
    text: 'Calling',
    reasoning: 'Think',
    toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{}' }],
    parts: [
      { kind: 'reasoning', key: 'r0', text: 'Think' },
      { kind: 'text', key: 't0', text: 'Calling' },
      { kind: 'tool_call', key: 'c0', call: { id: 'call_1', name: 'get_weather', arguments: '{}' } },
    ],
    usage: { inputTokens: 3, outputTokens: 4, totalTokens: 7, cachedTokens: 1 },
    finishReason: 'tool_calls',
    rawFinishReason: 'tool_use',
    error: { code: 'overloaded_error', message: 'Overloaded' },
    model: 'claude-x',
  },
  httpError: {
    status: 529,
    code: 'overloaded_error',
    message: 'Overloaded',
    retryable: true,
    retryAfterSeconds: null,
    requestId: null,
  },
  trace: {
    headersAt: 1,
    firstOutputAt: 5,
    endedAt: 9,
    bytes: 40,
    outputEvents: 1,
    items,
    raw: 'data: {}\n\n',
    truncated: false,
  },
};

const conversation: Conversation = {
  id: 'conv_1',
  title: 'Weather',
  createdAt: 1,
  updatedAt: 4,
  selected: { '': 'm1' },
  choices: { protocol: 'messages', model: 'claude-x', reasoning: 'high' },
  systemPrompt: 'Be brief.',
  parameters: { temperature: 0.7, topP: 0.9, maxOutputTokens: 512, stop: ['END'], seed: 42 },
  messages: [
    {
      id: 'm1',
      role: 'user',
      text: 'Weather?',
      createdAt: 1,
      parentId: null,
      attachments: [{ id: 'file_1', name: 'a.png', mimeType: 'image/png', size: 3, kind: 'image' }],
    },
    {
      id: 'm2',
      role: 'assistant',
      protocol: 'messages',
      model: 'claude-x',
      source: { kind: 'replay', file: 'a.sse' },
      createdAt: 2,
      parentId: 'm1',
      attempts: [attempt],
    },
    { id: 'm3', role: 'tool', toolCallId: 'call_1', name: 'get_weather', content: 'Sunny', createdAt: 3 },
  ],
};

const json = (value: unknown): Json => JSON.parse(JSON.stringify(value)) as Json;

const backup = json({
  format: 'hopbase-chat-backup',
  version: 1,
  createdAt: '2025-10-02T20:26:00.000Z',
  app: { name: 'hopbase-chat', version: '0.1.0' },
  conversations: [conversation],
  attachments: [
    {
      id: 'file_1',
      conversationId: 'conv_1',
      messageId: 'm1',
      name: 'a.png',
      type: 'image/png',
      size: 3,
      data: 'AAEC',
    },
  ],
  settings: { ...defaultSettings, apiKey: undefined, rememberKey: undefined },
});

const jsonTrace = json({ format: 'hopbase-chat-trace', version: 1, protocol: 'messages', events: items });

// ---- Mutations ----------------------------------------------------------------------------------------

/** Every path in a JSON value, the root (`[]`) included. */
function paths(value: Json, prefix: Path = []): Path[] {
  const out: Path[] = [prefix];
  if (Array.isArray(value)) for (const [i, item] of value.entries()) out.push(...paths(item, [...prefix, i]));
  else if (value !== null && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) out.push(...paths(item, [...prefix, key]));
  return out;
}

const replacements = fc.constantFrom<(old: Json) => Json | undefined>(
  () => undefined,
  () => null,
  (old) => (typeof old === 'number' ? -1.5 : 7),
  () => 'x',
  () => '',
  () => true,
  (old) => (Array.isArray(old) ? [[]] : old !== null && typeof old === 'object' ? [old] : []),
  () => ({}),
  () => 1e300,
);

/** `value` with the value at `path` replaced (dropped when `undefined`). */
function mutated(value: Json, path: Path, replace: (old: Json) => Json | undefined): Json | undefined {
  if (path.length === 0) return replace(value);
  const copy = structuredClone(value) as Record<string | number, Json>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, Json>;
  const last = path.at(-1)!;
  const next = replace(parent[last]!);
  if (next !== undefined) parent[last] = next;
  else if (Array.isArray(parent)) parent.splice(last as number, 1);
  else delete parent[last];
  return copy;
}

/** One or two mutations of `valid` at any of its paths. */
function mutationsOf(valid: Json): fc.Arbitrary<Json | undefined> {
  const step = (value: Json) =>
    fc
      .tuple(fc.constantFrom(...paths(value)), replacements)
      .map(([path, replace]) => mutated(value, path, replace));
  return fc.oneof(
    step(valid),
    step(valid).chain((once) => (once === undefined ? fc.constant(once) : step(once))),
  );
}

const anyJson = fc.jsonValue() as fc.Arbitrary<Json>;

// ---- What a reader may answer -------------------------------------------------------------------------

/** `messages[1].attempts[0].turn.status: expected a turn status`, `record: expected an object`… */
const reasonShape =
  /^(?:[A-Za-z_$][\w$]*|\[(?:\d+|"(?:[^"\\]|\\.)*")\])(?:\.[A-Za-z_$][\w$]*|\[(?:\d+|"(?:[^"\\]|\\.)*")\])*: expected .+$|^expected .+$/;

const isString = (value: unknown): value is string => typeof value === 'string';
const isNumber = (value: unknown) => typeof value === 'number' && Number.isFinite(value);
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function wellFormedItem(item: TraceItem): boolean {
  return (
    isNumber(item.t) &&
    (item.kind === 'event' || item.kind === 'comment') &&
    isString(item.event) &&
    isString(item.data)
  );
}

function wellFormedAttempt(a: Attempt): boolean {
  const { turn, request, trace } = a;
  return (
    isString(a.id) &&
    isNumber(a.startedAt) &&
    isString(request.url) &&
    isString(request.path) &&
    isPlainObject(request.body) &&
    [request.headers, a.sentHeaders].every((h) => isPlainObject(h) && Object.values(h).every(isString)) &&
    [undefined, 'missing', 'unreadable'].includes(request.bodyMissing) &&
    ['streaming', 'complete', 'error', 'interrupted', 'aborted'].includes(turn.status) &&
    [turn.text, turn.reasoning, turn.refusal].every(isString) &&
    turn.toolCalls.every((c) => [c.id, c.name, c.arguments].every(isString)) &&
    turn.parts.every((p) =>
      isString(p.key) && p.kind === 'tool_call'
        ? [p.call.id, p.call.name, p.call.arguments].every(isString)
        : ['text', 'reasoning', 'refusal'].includes(p.kind) && isString((p as { text: unknown }).text),
    ) &&
    (turn.usage === null ||
      [turn.usage.inputTokens, turn.usage.outputTokens, turn.usage.totalTokens].every(isNumber)) &&
    (turn.error === null || (isString(turn.error.code) && isString(turn.error.message))) &&
    (a.httpError === null || (isNumber(a.httpError.status) && isString(a.httpError.code))) &&
    [trace.bytes, trace.outputEvents].every(isNumber) &&
    [trace.headersAt, trace.firstOutputAt, trace.endedAt].every((t) => t === null || isNumber(t)) &&
    trace.items.every(wellFormedItem) &&
    isString(trace.raw) &&
    typeof trace.truncated === 'boolean'
  );
}

function wellFormedMessage(m: ChatMessage, ids: Set<string>): boolean {
  if (!isString(m.id) || !isNumber(m.createdAt)) return false;
  // No parent (null, or '': the first message's fork) or one of the conversation's messages.
  if (m.parentId && !ids.has(m.parentId)) return false;
  switch (m.role) {
    case 'user':
      return (
        isString(m.text) &&
        (m.attachments ?? []).every(
          (f) =>
            [f.id, f.name, f.mimeType].every(isString) &&
            isNumber(f.size) &&
            ['image', 'text'].includes(f.kind),
        )
      );
    case 'tool':
      return [m.toolCallId, m.name, m.content].every(isString);
    case 'assistant':
      return (
        protocols.includes(m.protocol) &&
        isString(m.model) &&
        (m.source.kind === 'gateway' || (m.source.kind === 'replay' && isString(m.source.file))) &&
        m.attempts.every(wellFormedAttempt)
      );
    default:
      return false;
  }
}

function wellFormed(c: Conversation): boolean {
  const ids = new Set(c.messages.map((m) => m.id));
  return (
    isString(c.id) &&
    isString(c.title) &&
    isNumber(c.createdAt) &&
    isNumber(c.updatedAt) &&
    c.messages.every((m) => wellFormedMessage(m, ids)) &&
    (c.selected === undefined || Object.values(c.selected).every(isString)) &&
    (c.systemPrompt === undefined || isString(c.systemPrompt)) &&
    (c.parameters === undefined ||
      ((c.parameters.stop === undefined || c.parameters.stop.every(isString)) &&
        numberParameters.every(
          (name) => c.parameters?.[name] === undefined || isNumber(c.parameters[name]),
        ))) &&
    (c.choices === undefined ||
      (protocols.includes(c.choices.protocol) &&
        c.choices.model !== '' &&
        reasoningLevels.includes(c.choices.reasoning)))
  );
}

function checkConversationRecord(value: unknown) {
  const read = readConversationRecord('conversation:conv_1', value);
  if (read.kind === 'unreadable') expect(read.reason).toMatch(reasonShape);
  else {
    expect(wellFormed(read.conversation)).toBe(true);
    // What was read reads again as itself: a record written back from it loads the same.
    expect(readConversationRecord('conversation:conv_1', read.conversation)).toEqual(read);
  }
}

function checkTraceRecord(value: unknown) {
  const read = readTraceRecord(value);
  if (typeof read === 'string') expect(read).toMatch(reasonShape);
  else expect(read.items.every(wellFormedItem) && isString(read.raw)).toBe(true);
}

function checkSettingsRecord(value: unknown) {
  const read = readSettingsRecord(value);
  if (read === null) {
    expect(isPlainObject(value)).toBe(false);
    return;
  }
  const s = read.settings;
  expect(read.wrong.every((key) => key in defaultSettings && !(key in s))).toBe(true);
  if (s.protocol !== undefined) expect(protocols).toContain(s.protocol);
  if (s.reasoning !== undefined) expect(reasoningLevels).toContain(s.reasoning);
  if (s.thinkingBudgets !== undefined)
    for (const budget of Object.values(s.thinkingBudgets))
      expect(Number.isSafeInteger(budget) && budget >= 1024).toBe(true);
  for (const key of ['stallSilentSeconds', 'stallDeadSeconds'] as const)
    if (s[key] !== undefined) expect(isNumber(s[key])).toBe(true);
  for (const key of ['model', 'systemPrompt', 'baseUrl', 'apiKey', 'language'] as const)
    if (s[key] !== undefined) expect(isString(s[key])).toBe(true);
}

const refusalCodes = [
  'not_json',
  'not_backup',
  'conversation_file',
  'trace_file',
  'no_version',
  'no_conversations',
  'newer_version',
];

function checkBackup(text: string) {
  const read = readBackup(text);
  if (!read.ok) {
    expect(refusalCodes).toContain(read.refusal.code);
    return;
  }
  expect(read.conversations.every(wellFormed)).toBe(true);
  for (const problem of read.problems)
    expect(problem.reason).toMatch(
      /^(?:.+: expected .+|expected .+|of the wrong type|not a settings record|no conversation in this backup refers to it)$/,
    );
  expect(read.attachments.every((a) => isString(a.id) && a.blob instanceof Blob)).toBe(true);
  expect(read.settings === null || !('apiKey' in read.settings || 'rememberKey' in read.settings)).toBe(true);
}

const importMessages =
  /^(?:This JSON file is not a HopBase Chat trace|This trace has no "events" list\.|Event \d+ of this trace is not a recorded item)/;

function checkTraceImport(value: unknown) {
  let read: ReturnType<typeof readJsonTrace> | undefined;
  try {
    read = readJsonTrace(value);
  } catch (error) {
    expect((error as Error).message).toMatch(importMessages);
    return;
  }
  expect(read.events.every(wellFormedItem)).toBe(true);
  expect(read.protocol === null || protocols.includes(read.protocol)).toBe(true);
}

// ---- The properties -----------------------------------------------------------------------------------

describe('the stored-records reader', () => {
  it('reads the valid records as they are', () => {
    expect(readConversationRecord('conversation:conv_1', json(conversation))).toEqual({
      kind: 'conversation',
      conversation,
      revision: 0,
    });
    expect(readTraceRecord({ items, raw: '' })).toEqual({ items, raw: '' });
  });

  it('answers random JSON with a record or a reason', () => {
    fc.assert(
      fc.property(anyJson, (value) => {
        checkConversationRecord(value);
        checkTraceRecord(value);
        checkSettingsRecord(value);
        const request = readRequestRecord(value);
        if (typeof request === 'string') expect(request).toMatch(reasonShape);
        else expect(isPlainObject(request.body)).toBe(true);
      }),
      { ...seed, numRuns: 300 },
    );
  });

  it('reads a mutated conversation record as a well-formed conversation, or says what is wrong', () => {
    fc.assert(fc.property(mutationsOf(json(conversation)), checkConversationRecord), {
      ...seed,
      numRuns: 600,
    });
  });

  it('reads a mutated recording or settings record, or says what is wrong', () => {
    fc.assert(fc.property(mutationsOf(json({ items, raw: 'data: {}\n\n' })), checkTraceRecord), {
      ...seed,
      numRuns: 200,
    });
    fc.assert(fc.property(mutationsOf(json(defaultSettings)), checkSettingsRecord), {
      ...seed,
      numRuns: 300,
    });
  });
});

describe('the backup reader', () => {
  it('reads the valid backup whole', () => {
    const read = readBackup(JSON.stringify(backup));
    expect(read.ok && [read.problems, read.conversations, read.attachments.length]).toEqual([
      [],
      [conversation],
      1,
    ]);
  });

  it('answers random text and JSON with a refusal code or what it read', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          anyJson.map((value) => JSON.stringify(value)),
        ),
        checkBackup,
      ),
      { ...seed, numRuns: 300 },
    );
  });

  it('reads a mutated backup as well-formed entries and problems, or refuses it with a code', () => {
    fc.assert(
      fc.property(mutationsOf(backup), (value) => checkBackup(JSON.stringify(value) ?? '')),
      { ...seed, numRuns: 600 },
    );
  });
});

describe('the trace import', () => {
  it('answers random JSON and mutated traces with its events or a message for the import form', () => {
    fc.assert(fc.property(fc.oneof(anyJson, mutationsOf(jsonTrace)), checkTraceImport), {
      ...seed,
      numRuns: 500,
    });
  });

  it('replays any text as a recording or refuses it with a message, storing nothing', () => {
    const text = fc.oneof(
      fc.string(),
      mutationsOf(jsonTrace).map((value) => JSON.stringify(value) ?? ''),
      fc.string().map((s) => `data: ${s}\n\n`),
    );
    fc.assert(
      fc.property(text, (file) => {
        try {
          const recording = readRecording(file, 'recorded', 'chat');
          expect(protocols).toContain(recording.protocol);
          expect(recording.schedule.every((s) => s.delayMs >= 0 && isString(s.text))).toBe(true);
        } catch (error) {
          expect((error as Error).message).toMatch(
            /^(?:This file is neither a recorded event stream|This JSON file is not a HopBase Chat trace|This trace has no "events" list\.|Event \d+ of this trace)/,
          );
        }
      }),
      { ...seed, numRuns: 300 },
    );
  });
});
