import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emptyTurn } from '../../core/index.ts';
import { shownBranch } from '../domain/branches.ts';
import { emptyRecording } from '../domain/recordings.ts';
import type { Conversation } from '../domain/types.ts';
import {
  joinRecording,
  packedLines,
  readConversationRecord,
  readRequestRecord,
  readSettingsRecord,
  readTraceRecord,
  tracePartKeys,
  unreadableRecordsFile,
} from './records.ts';

function conversation(): Conversation {
  return {
    id: 'conv_1',
    title: 'Weather',
    createdAt: 1,
    updatedAt: 4,
    messages: [
      { id: 'm1', role: 'user', text: 'Weather in Paris?', createdAt: 1 },
      {
        id: 'm2',
        role: 'assistant',
        protocol: 'responses',
        model: 'gpt-x',
        source: { kind: 'gateway' },
        createdAt: 2,
        attempts: [
          {
            id: 'att_1',
            startedAt: 2,
            request: {
              url: '/v1/responses',
              path: '/responses',
              headers: { 'content-type': 'application/json' },
              body: { model: 'gpt-x' },
            },
            sentHeaders: { authorization: '[redacted]' },
            httpError: null,
            turn: {
              ...emptyTurn,
              status: 'complete',
              text: 'Calling',
              toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }],
              parts: [
                { kind: 'text', key: 't0', text: 'Calling' },
                {
                  kind: 'tool_call',
                  key: 'c0',
                  call: { id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
                },
              ],
              usage: { inputTokens: 3, outputTokens: 4, totalTokens: 7 },
              finishReason: 'tool_calls',
            },
            trace: { ...emptyRecording(), bytes: 120, endedAt: 40 },
          },
        ],
      },
      { id: 'm3', role: 'tool', toolCallId: 'call_1', name: 'get_weather', content: 'Sunny', createdAt: 3 },
    ],
  };
}

describe('readConversationRecord', () => {
  it('reads every kind of message the app writes, unchanged, with its revision', () => {
    const record = { ...conversation(), revision: 7 };
    expect(readConversationRecord('conversation:conv_1', record)).toEqual({
      kind: 'conversation',
      conversation: conversation(),
      revision: 7,
    });
  });

  it('fills in what older records lack', () => {
    const old = conversation() as unknown as { messages: Record<string, unknown>[] };
    const answer = old.messages[1]! as { source?: unknown; attempts: Record<string, unknown>[] };
    delete answer.source;
    const attempt = answer.attempts[0]!;
    delete attempt.sentHeaders;
    const turn = attempt.turn as Record<string, unknown>;
    delete turn.refusal;
    delete turn.rawFinishReason;
    attempt.trace = { bytes: 120, deltaEvents: 3 };
    const read = readConversationRecord('conversation:conv_1', old);
    expect(read.kind).toBe('conversation');
    const message = read.kind === 'conversation' ? read.conversation.messages[1] : undefined;
    expect(message).toMatchObject({
      source: { kind: 'gateway' },
      attempts: [
        {
          sentHeaders: {},
          turn: { refusal: '', rawFinishReason: null },
          trace: { bytes: 120, outputEvents: 3, items: [], raw: '', truncated: false },
        },
      ],
    });
    expect(read.revision).toBe(0);
  });

  it('reads a request without its body as one whose body is apart: empty and marked missing until joined', () => {
    const record = structuredClone(conversation()) as unknown as {
      messages: { attempts?: { request: Record<string, unknown> }[] }[];
    };
    delete record.messages[1]!.attempts![0]!.request.body;
    const read = readConversationRecord('conversation:conv_1', record);
    const answer = read.kind === 'conversation' ? read.conversation.messages[1] : null;
    expect(answer?.role === 'assistant' && answer.attempts[0]?.request).toEqual({
      url: '/v1/responses',
      path: '/responses',
      headers: { 'content-type': 'application/json' },
      body: {},
      bodyMissing: 'missing',
    });
  });

  it('keeps the mark of an inline body a backup says is missing or unreadable, and drops any other', () => {
    const marked = (bodyMissing: unknown) => {
      const record = structuredClone(conversation()) as unknown as {
        messages: { attempts?: { request: Record<string, unknown> }[] }[];
      };
      record.messages[1]!.attempts![0]!.request.bodyMissing = bodyMissing;
      const read = readConversationRecord('conversation:conv_1', record);
      const answer = read.kind === 'conversation' ? read.conversation.messages[1] : null;
      return answer?.role === 'assistant' ? answer.attempts[0]?.request : null;
    };
    expect(marked('unreadable')).toMatchObject({ body: { model: 'gpt-x' }, bodyMissing: 'unreadable' });
    expect(marked('missing')).toMatchObject({ bodyMissing: 'missing' });
    expect(marked(true)).not.toHaveProperty('bodyMissing');
  });

  it('reads branches: the parent of each message and the version chosen at each fork', () => {
    const original = conversation();
    const branched: Conversation = {
      ...original,
      messages: [
        ...original.messages.map((m, i) => ({ ...m, parentId: original.messages[i - 1]?.id ?? null })),
        { id: 'm4', role: 'user', text: 'Weather in Rome?', createdAt: 4, parentId: null },
      ],
      selected: { '': 'm1' },
    };
    const read = readConversationRecord('conversation:conv_1', branched);
    expect(read).toEqual({ kind: 'conversation', conversation: branched, revision: 0 });
    const shown = read.kind === 'conversation' ? shownBranch(read.conversation) : [];
    expect(shown.map((m) => m.id)).toEqual(['m1', 'm2', 'm3']);
  });

  it('loads a record from before branches as one branch, in its order', () => {
    const read = readConversationRecord('conversation:conv_1', conversation());
    const shown = read.kind === 'conversation' ? shownBranch(read.conversation) : [];
    expect(shown.map((m) => m.id)).toEqual(['m1', 'm2', 'm3']);
  });

  it('keeps the choices a conversation remembers and leaves out those this version cannot use', () => {
    const choicesOf = (choices: unknown) => {
      const read = readConversationRecord('conversation:conv_1', { ...conversation(), choices });
      return read.kind === 'conversation' ? read.conversation.choices : 'unreadable';
    };
    const sound = { protocol: 'messages', model: 'claude-x', reasoning: 'high' };
    expect(choicesOf(sound)).toEqual(sound);
    for (const damaged of [
      { ...sound, protocol: 'telepathy' },
      { ...sound, model: '' },
      { ...sound, reasoning: 'extreme' },
      { protocol: 'chat' },
      'chat',
      null,
    ])
      expect(choicesOf(damaged)).toBeUndefined();
  });

  it('keeps the parameters a conversation sends, each of the wrong type left out, a newer one kept', () => {
    const parametersOf = (parameters: unknown) => {
      const read = readConversationRecord('conversation:conv_1', { ...conversation(), parameters });
      return read.kind === 'conversation' ? read.conversation.parameters : 'unreadable';
    };
    const sound = {
      temperature: 0.7,
      topP: 0.9,
      maxOutputTokens: 512,
      stop: ['END', '\n\n'],
      seed: 42,
      presencePenalty: -1,
      frequencyPenalty: 2,
      cache: true,
    };
    expect(parametersOf(sound)).toEqual(sound);
    // The cache switch is on or absent: anything else is off.
    expect(parametersOf({ cache: 'yes', temperature: 1 })).toEqual({ temperature: 1 });
    expect(parametersOf({ cache: false })).toEqual({});
    // Out of a protocol's range is still read: which range applies depends on the protocol sent to.
    expect(parametersOf({ temperature: 9 })).toEqual({ temperature: 9 });
    expect(parametersOf({ temperature: 'hot', seed: Number.NaN, stop: [1], topP: 0.5 })).toEqual({
      topP: 0.5,
    });
    expect(parametersOf({ topK: 40, temperature: 1 })).toEqual({ topK: 40, temperature: 1 });
    // Records from before parameters were kept, and damaged ones: none (the defaults then apply).
    for (const damaged of [undefined, null, 'hot', [0.5]]) expect(parametersOf(damaged)).toBeUndefined();
  });

  const broken: [string, (c: Record<string, unknown> & { messages: unknown[] }) => unknown, string][] = [
    ['messages: null', (c) => ({ ...c, messages: null }), 'messages: expected a list'],
    ['not an object', () => 'conv_1', 'record: expected an object'],
    ['an array', () => [], 'record: expected an object'],
    ['a title that is a number', (c) => ({ ...c, title: 5 }), 'title: expected a string'],
    ['an id other than its key', (c) => ({ ...c, id: 'conv_2' }), 'id: expected the id in its key (conv_1)'],
    [
      'an unknown role',
      (c) => ({ ...c, messages: [{ id: 'x', role: 'system', text: '' }] }),
      'messages[0].role: expected user, assistant or tool',
    ],
    [
      'a user message without text',
      (c) => ({ ...c, messages: [{ id: 'x', role: 'user' }] }),
      'messages[0].text: expected a string',
    ],
    [
      'an answer without attempts',
      (c) => ({ ...c, messages: [c.messages[0], { ...(c.messages[1] as object), attempts: undefined }] }),
      'messages[1].attempts: expected a list',
    ],
    [
      'a turn with a bad part',
      (c) => {
        const answer = structuredClone(c.messages[1]) as { attempts: { turn: { parts: unknown[] } }[] };
        answer.attempts[0]!.turn.parts = [{ kind: 'image', key: 'i' }];
        return { ...c, messages: [c.messages[0], answer] };
      },
      'messages[1].attempts[0].turn.parts[0].kind: expected text, reasoning, refusal or tool_call',
    ],
    [
      'a request body that is not an object',
      (c) => {
        const answer = structuredClone(c.messages[1]) as { attempts: { request: { body: unknown } }[] };
        answer.attempts[0]!.request.body = 'model=gpt-x';
        return { ...c, messages: [c.messages[0], answer] };
      },
      'messages[1].attempts[0].request.body: expected an object',
    ],
    [
      'a parent that is not an id',
      (c) => ({ ...c, messages: [c.messages[0], { ...(c.messages[1] as object), parentId: 1 }] }),
      'messages[1].parentId: expected a string',
    ],
    [
      'a parent that is not in the conversation',
      (c) => ({ ...c, messages: [c.messages[0], { ...(c.messages[1] as object), parentId: 'm9' }] }),
      'messages[1].parentId: expected the id of a message of this conversation',
    ],
    [
      'choices of versions that are a list',
      (c) => ({ ...c, selected: ['m1'] }),
      'selected: expected an object',
    ],
    [
      'a chosen version that is not an id',
      (c) => ({ ...c, selected: { m1: null } }),
      'selected.m1: expected a string',
    ],
    [
      'an unknown protocol',
      (c) => ({ ...c, messages: [c.messages[0], { ...(c.messages[1] as object), protocol: 'grpc' }] }),
      'messages[1].protocol: expected one of chat, responses, messages',
    ],
  ];
  for (const [name, breakIt, reason] of broken) {
    it(`sets aside a record with ${name}`, () => {
      const value = breakIt(conversation() as unknown as Record<string, unknown> & { messages: unknown[] });
      expect(readConversationRecord('conversation:conv_1', value)).toMatchObject({
        kind: 'unreadable',
        reason,
      });
    });
  }
});

describe('readRequestRecord', () => {
  it('reads a request body, or says what is wrong with it', () => {
    const body = { model: 'gpt-x', input: [{ role: 'user', content: 'Hi' }] };
    expect(readRequestRecord({ body })).toEqual({ body });
    expect(readRequestRecord({ body: [body] })).toBe('body: expected an object');
    expect(readRequestRecord(body)).toBe('body: expected an object');
    expect(readRequestRecord('{}')).toBe('record: expected an object');
  });
});

describe('readTraceRecord and readSettingsRecord', () => {
  it('reads a recording, or says what is wrong with it', () => {
    const items = [{ t: 1, kind: 'event', event: 'message', data: '{}' }];
    expect(readTraceRecord({ items, raw: 'data: {}\n\n' })).toEqual({ items, raw: 'data: {}\n\n' });
    expect(readTraceRecord({ items: [{ t: 'x' }], raw: '' })).toBe(
      'items[0]: expected a recorded event or comment',
    );
    expect(readTraceRecord(null)).toBe('record: expected an object');
  });

  it('packs each item as the JSON of its four fields, whatever they hold', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            t: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })),
            kind: fc.constantFrom('event' as const, 'comment' as const),
            event: fc.string({ unit: 'binary' }),
            data: fc.string({ unit: 'binary' }),
          }),
        ),
        (items) => {
          expect(packedLines(items).lines).toBe(items.map((item) => `${JSON.stringify(item)}\n`).join(''));
        },
      ),
    );
  });

  it('reads a packed recording as written, its lines in order, whatever their data holds', () => {
    const items = [
      { t: 1, kind: 'event' as const, event: 'message', data: '{"text":"two\\nlines, “quoted”, 会話"}' },
      { t: 5, kind: 'comment' as const, event: '', data: 'hopbase-keepalive' },
      { t: 9, kind: 'event' as const, event: 'done', data: 'line one\nline two' },
    ];
    const packed = packedLines(items).lines;
    expect(packed.split('\n')).toHaveLength(4);
    expect(readTraceRecord({ packed, raw: 'r' })).toEqual({ items, raw: 'r' });
    // Packed in two writes: the lines of the first, then those of the items added since.
    expect(packedLines(items.slice(0, 1)).lines + packedLines(items, 1).lines).toBe(packed);
    // Packed in parts of at most about so many characters: each part ends with the line that reached it.
    const first = packedLines(items, 0, 1);
    expect(first).toEqual({ lines: packed.slice(0, packed.indexOf('\n') + 1), end: 1 });
    expect(packedLines(items, first.end, first.lines.length + 1).end).toBe(3);
    expect(packedLines(items, 3, 1)).toEqual({ lines: '', end: 3 });
    expect(readTraceRecord({ packed: '', raw: '' })).toEqual({ items: [], raw: '' });
    expect(readTraceRecord({ packed: `${packed}{"t":"x"}\n`, raw: '' })).toBe(
      'packed: line 4 is not a recorded event or comment',
    );
    expect(readTraceRecord({ packed: 'nope', raw: '' })).toBe('packed: line 1 is not JSON');
    expect(readTraceRecord({ packed, raw: 3 })).toBe('raw: expected a string');
  });
});

describe('a recording written in parts', () => {
  const item = (t: number) => ({ t, kind: 'event' as const, event: 'message', data: `{"n":${t}}` });
  const items = [item(1), item(2), item(3)];
  const part = (from: number, to: number, raw: string) => ({
    packed: packedLines(items.slice(from, to)).lines,
    raw,
  });
  const whole = { items, raw: 'abc' };

  it.each([
    ['a list of items, as the first versions wrote it', { items, raw: 'abc' }, [], whole],
    [
      'packed whole, as a recording written at once',
      { packed: packedLines(items).lines, raw: 'abc' },
      [],
      whole,
    ],
    ['in parts, joined in order', { parts: 3 }, [part(0, 1, 'a'), part(1, 1, ''), part(1, 3, 'bc')], whole],
    ['in one part', { parts: 1 }, [part(0, 3, 'abc')], whole],
    ['a part missing', { parts: 2 }, [part(0, 1, 'a'), undefined], 'part 1: missing'],
    [
      'a part of the wrong shape',
      { parts: 2 },
      [part(0, 1, 'a'), { packed: 1, raw: '' }],
      'part 1: packed: expected a string',
    ],
    [
      'a part whose lines are not events',
      { parts: 1 },
      [{ packed: '{"t":1}\n', raw: '' }],
      'part 0: packed: line 1 is not a recorded event or comment',
    ],
    ['a part that is not an object', { parts: 1 }, ['x'], 'part 0: record: expected an object'],
    ['a head naming no parts', { parts: 0 }, [], 'parts: expected at least 1'],
    ['a head naming half a part', { parts: 1.5 }, [], 'parts: expected a whole number'],
    ['a head naming more than a recording may have', { parts: 10_001 }, [], 'parts: expected at most 10000'],
    ['a head whose count is not a number', { parts: '2' }, [], 'parts: expected a number'],
  ])('%s', (_, head, parts, read) => {
    expect(joinRecording(head, parts)).toEqual(read);
  });

  it.each([
    ['att_1', { parts: 2 }, ['trace-part:att_1:0', 'trace-part:att_1:1']],
    ['a:1', { parts: 1 }, ['trace-part:a:1:0']],
    ['__proto__', { parts: 1 }, ['trace-part:__proto__:0']],
    ['att_1', { packed: '', raw: '' }, []],
    ['att_1', { parts: -1 }, []],
    ['att_1', undefined, []],
  ])('the parts of %s by the head %j', (id, head, keys) => {
    expect(tracePartKeys(id, head)).toEqual(keys);
  });
});

describe('readSettingsRecord', () => {
  it('keeps settings it does not know, and leaves out those of the wrong type', () => {
    expect(readSettingsRecord(undefined)).toEqual({ settings: {}, wrong: [] });
    expect(readSettingsRecord('x')).toBeNull();
    expect(
      readSettingsRecord({
        model: 'gpt-x',
        protocol: 'grpc',
        temperature: null,
        maxOutputTokens: '100',
        offerTools: 'yes',
        tools: [{ name: 'get_weather', parameters: {} }],
        addedLater: [1, 2],
        systemPrompt: null,
      }),
    ).toEqual({
      settings: {
        model: 'gpt-x',
        temperature: null,
        tools: [{ name: 'get_weather', parameters: {} }],
        addedLater: [1, 2],
      },
      wrong: ['protocol', 'maxOutputTokens', 'offerTools', 'systemPrompt'],
    });
  });
});

describe('presets in the settings record', () => {
  const sound = {
    id: 'pre_1',
    name: 'Careful',
    createdAt: 5,
    choices: { protocol: 'messages', model: 'claude-x', reasoning: 'high' },
    systemPrompt: 'Think twice.',
    parameters: { temperature: 1, stop: ['END'] },
  };
  const presetsOf = (presets: unknown) => readSettingsRecord({ presets });

  it('keeps each preset that reads, leaves out each that does not', () => {
    const damaged = [
      { ...sound, id: '' },
      { ...sound, name: 42 },
      { ...sound, choices: { ...sound.choices, protocol: 'telepathy' } },
      'Careful',
      null,
    ];
    expect(presetsOf([sound, ...damaged])).toEqual({ settings: { presets: [sound] }, wrong: [] });
  });

  it('makes sound what is safe: an unknown level off, damaged parameters none', () => {
    const read = presetsOf([
      { ...sound, choices: { ...sound.choices, reasoning: 'extreme' }, parameters: 'hot' },
    ]);
    expect(read?.settings.presets?.[0]).toMatchObject({ choices: { reasoning: 'off' }, parameters: {} });
  });

  it('a list that is not one is the default', () => {
    expect(presetsOf({ a: sound })).toEqual({ settings: {}, wrong: ['presets'] });
  });
});

describe('unreadableRecordsFile', () => {
  it('writes every record as JSON, spelling out what JSON cannot hold', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    const value = {
      messages: null,
      missing: undefined,
      big: 10n,
      map: new Map([['a', 1]]),
      bytes: new Uint8Array([1, 2]),
      nan: Number.NaN,
      cyclic,
    };
    const text = unreadableRecordsFile(
      [{ key: 'conversation:conv_bad', what: 'conversation', reason: 'messages: expected a list', value }],
      new Date(Date.UTC(2025, 0, 2)),
    );
    expect(JSON.parse(text)).toEqual({
      app: 'hopbase-chat',
      exportedAt: '2025-01-02T00:00:00.000Z',
      note: expect.stringContaining('still stored, unchanged'),
      records: [
        {
          key: 'conversation:conv_bad',
          what: 'conversation',
          reason: 'messages: expected a list',
          value: {
            messages: null,
            missing: { $undefined: true },
            big: { $bigint: '10' },
            map: { $map: [['a', 1]] },
            bytes: { $bytes: [1, 2] },
            nan: { $number: 'NaN' },
            cyclic: { name: 'loop', self: { $circular: true } },
          },
        },
      ],
    });
  });
});
