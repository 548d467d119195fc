/**
 * The shared Turn transitions. Main invariant (stated in turnBuilder.ts): the flat `text`, `reasoning`,
 * `refusal` and `toolCalls` always agree with `parts`, whatever order the deltas arrive in.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emptyTurn, type Turn, type TurnPart } from './turn.ts';
import {
  appendText,
  appendToolArguments,
  complete,
  fail,
  setText,
  setToolArguments,
  startToolCall,
  TextGrowth,
} from './turnBuilder.ts';

type TextKind = 'text' | 'reasoning' | 'refusal';
const separators: Record<TextKind, string> = { text: '', reasoning: '\n\n', refusal: '' };

/** What the flat string should be, computed from the parts alone. */
function expectedFlat(parts: TurnPart[], kind: TextKind): string {
  return parts
    .filter((p): p is Extract<TurnPart, { text: string }> => p.kind === kind && p.text !== '')
    .map((p) => p.text)
    .join(separators[kind]);
}

function expectConsistent(turn: Turn): void {
  for (const kind of ['text', 'reasoning', 'refusal'] as const)
    expect(turn[kind]).toBe(expectedFlat(turn.parts, kind));
  expect(turn.toolCalls).toEqual(turn.parts.flatMap((p) => (p.kind === 'tool_call' ? [p.call] : [])));
}

describe('text parts', () => {
  it('appends to the same key and opens a new part for a new key', () => {
    const turn = appendText(
      appendText(appendText(emptyTurn, 'text', 'a', 'Hel'), 'text', 'a', 'lo'),
      'text',
      'b',
      '!',
    );
    expect(turn.parts).toEqual([
      { kind: 'text', key: 'a', text: 'Hello' },
      { kind: 'text', key: 'b', text: '!' },
    ]);
    expect(turn.text).toBe('Hello!');
  });

  it('separates reasoning parts with a blank line, skipping empty parts', () => {
    let turn = appendText(emptyTurn, 'reasoning', 'r0', 'One');
    turn = appendText(turn, 'reasoning', 'r1', '');
    turn = appendText(turn, 'reasoning', 'r2', 'Two');
    expect(turn.reasoning).toBe('One\n\nTwo');
    turn = appendText(turn, 'reasoning', 'r1', 'Mid');
    expectConsistent(turn);
    expect(turn.reasoning).toBe('One\n\nMid\n\nTwo');
  });

  it('keeps the flat text in part order when an earlier part grows after a later one started', () => {
    let turn = appendText(emptyTurn, 'text', 'msg_1:0', 'A');
    turn = appendText(turn, 'text', 'msg_2:0', 'B');
    turn = appendText(turn, 'text', 'msg_1:0', 'a');
    expect(turn.parts.map((p) => (p.kind === 'text' ? p.text : ''))).toEqual(['Aa', 'B']);
    expect(turn.text).toBe('AaB');
  });

  it('returns the same turn for an empty delta to an existing part', () => {
    const turn = appendText(emptyTurn, 'text', 'a', 'x');
    expect(appendText(turn, 'text', 'a', '')).toBe(turn);
  });

  it('setText replaces a part, or appends one when the key is new, and is a no-op when equal', () => {
    const turn = appendText(emptyTurn, 'text', 'a', 'draft');
    expect(setText(turn, 'text', 'a', 'draft')).toBe(turn);
    expect(setText(turn, 'text', 'a', 'final').text).toBe('final');
    expect(setText(turn, 'text', 'b', 'new').text).toBe('draftnew');
  });

  it('keeps kinds apart even with the same key', () => {
    const turn = appendText(appendText(emptyTurn, 'text', 'k', 'T'), 'reasoning', 'k', 'R');
    expect(turn.text).toBe('T');
    expect(turn.reasoning).toBe('R');
    expect(turn.parts).toHaveLength(2);
  });
});

describe('tool calls', () => {
  it('opens, streams and replaces arguments by key', () => {
    let turn = startToolCall(emptyTurn, 'k1', 'call_1', 'f');
    turn = appendToolArguments(turn, 'k1', '{"a":');
    turn = appendToolArguments(turn, 'k1', '1}');
    expect(turn.toolCalls).toEqual([{ id: 'call_1', name: 'f', arguments: '{"a":1}' }]);
    turn = setToolArguments(turn, 'k1', '{"a":2}');
    expect(turn.toolCalls).toEqual([{ id: 'call_1', name: 'f', arguments: '{"a":2}' }]);
  });

  it('fills in id and name on a call whose arguments came first', () => {
    const turn = startToolCall(appendToolArguments(emptyTurn, 'k', '{"x"'), 'k', 'call_9', 'g', ':1}');
    expect(turn.toolCalls).toEqual([{ id: 'call_9', name: 'g', arguments: '{"x":1}' }]);
  });

  it('does not overwrite an id or name already known', () => {
    const turn = startToolCall(startToolCall(emptyTurn, 'k', 'call_1', 'f'), 'k', 'call_other', 'other', 'x');
    expect(turn.toolCalls).toEqual([{ id: 'call_1', name: 'f', arguments: 'x' }]);
  });

  it('returns the same turn when nothing changes', () => {
    const turn = startToolCall(emptyTurn, 'k', 'c', 'f', '{}');
    expect(appendToolArguments(turn, 'k', '')).toBe(turn);
    expect(setToolArguments(turn, 'k', '{}')).toBe(turn);
    // A finished item naming the call again, or naming it otherwise (the first names are kept).
    expect(startToolCall(turn, 'k', 'c', 'f')).toBe(turn);
    expect(startToolCall(turn, 'k', 'other', 'g')).toBe(turn);
    expect(startToolCall(turn, 'k', 'c', 'f', 'x')).not.toBe(turn);
  });

  it('fills in a name that was empty, even when the id is known', () => {
    const turn = startToolCall(emptyTurn, 'k', 'c', '');
    expect(startToolCall(turn, 'k', 'c', 'f').toolCalls).toEqual([{ id: 'c', name: 'f', arguments: '' }]);
  });
});

describe('status', () => {
  it('complete and fail set only the status (and error)', () => {
    const turn = appendText(emptyTurn, 'text', 'a', 'kept');
    expect(complete(turn)).toEqual({ ...turn, status: 'complete' });
    expect(fail(turn, 'api_error', 'boom')).toEqual({
      ...turn,
      status: 'error',
      error: { code: 'api_error', message: 'boom' },
    });
  });

  it('never mutates the frozen empty turn', () => {
    expect(() => appendText(emptyTurn, 'text', 'a', 'x')).not.toThrow();
    expect(emptyTurn.parts).toEqual([]);
    expect(emptyTurn.text).toBe('');
  });
});

describe('consistency under any order of operations', () => {
  const kind = fc.constantFrom<TextKind>('text', 'reasoning', 'refusal');
  const key = fc.constantFrom('a', 'b', 'c');
  const piece = fc.constantFrom('', 'x', 'yz', 'é', '\n');
  const op = fc.oneof(
    fc.record({ op: fc.constant('append' as const), kind, key, text: piece }),
    fc.record({ op: fc.constant('set' as const), kind, key, text: piece }),
    fc.record({ op: fc.constant('tool' as const), kind: fc.constant('text' as TextKind), key, text: piece }),
    fc.record({ op: fc.constant('args' as const), kind: fc.constant('text' as TextKind), key, text: piece }),
  );

  it('keeps the flat strings and toolCalls equal to what the parts say', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        let turn = emptyTurn;
        for (const o of ops) {
          if (o.op === 'append') turn = appendText(turn, o.kind, o.key, o.text);
          else if (o.op === 'set') turn = setText(turn, o.kind, o.key, o.text);
          else if (o.op === 'tool') turn = startToolCall(turn, o.key, `id_${o.key}`, `fn_${o.key}`, o.text);
          else turn = appendToolArguments(turn, o.key, o.text);
          expectConsistent(turn);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('gives the same turns grown in batches and written in place, and never changes a turn handed out', () => {
    // Long runs on few parts fill batches; many parts (more than a growth follows at once) evict them.
    const manyKeys = fc.constantFrom('a', 'b', 'c', 'd', 'e');
    const longOp = fc.oneof(
      {
        weight: 6,
        arbitrary: fc.record({ op: fc.constant('append' as const), kind, key: manyKeys, text: piece }),
      },
      {
        weight: 3,
        arbitrary: fc.record({ op: fc.constant('args' as const), kind, key: manyKeys, text: piece }),
      },
      { weight: 1, arbitrary: op },
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(longOp, fc.boolean(), fc.nat(9)), { minLength: 50, maxLength: 400 }),
        (ops) => {
          const growth = new TextGrowth();
          let plain = emptyTurn;
          let grown = emptyTurn;
          // As readTurn's sink: the turn handed out last, and its parts, are never written into.
          let shared = emptyTurn;
          const shown: [Turn, string][] = [];
          for (const [o, runOfSame, handOut] of ops) {
            // Runs of deltas to one part, as streams have them.
            for (let repeat = runOfSame ? 40 : 1; repeat > 0; repeat--) {
              const owned =
                grown !== shared && grown.parts !== shared.parts && grown.parts !== emptyTurn.parts;
              if (o.op === 'append') {
                plain = appendText(plain, o.kind, o.key, o.text);
                grown = appendText(grown, o.kind, o.key, o.text, owned, growth);
              } else if (o.op === 'args') {
                plain = appendToolArguments(plain, o.key, o.text);
                grown = appendToolArguments(grown, o.key, o.text, owned, growth);
              } else if (o.op === 'set') {
                plain = setText(plain, o.kind, o.key, o.text);
                grown = setText(grown, o.kind, o.key, o.text);
              } else {
                plain = startToolCall(plain, o.key, `id_${o.key}`, `fn_${o.key}`, o.text);
                grown = startToolCall(grown, o.key, `id_${o.key}`, `fn_${o.key}`, o.text);
              }
              if (handOut === 0 && repeat === 1) {
                shared = grown;
                shown.push([grown, JSON.stringify(grown)]);
              }
            }
            expect(grown).toStrictEqual(plain);
          }
          expectConsistent(grown);
          for (const [turn, json] of shown) expect(JSON.stringify(turn)).toBe(json);
        },
      ),
      { numRuns: 150 },
    );
  });
});
