import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeConversation } from './merge.ts';
import type { Conversation } from './types.ts';

/** Fields a tab edits on a conversation, each with the values it may take (undefined: removed). */
const edits = {
  title: fc.constantFrom('A', 'B', 'C'),
  systemPrompt: fc.constantFrom(undefined, 'Be brief.', 'Be kind.', ''),
  choices: fc.constantFrom(
    undefined,
    { protocol: 'chat', model: 'm1', reasoning: 'low' },
    { protocol: 'anthropic', model: 'm2', reasoning: 'high' },
  ),
  selected: fc.constantFrom(undefined, { '': 'u1' }, { '': 'u2', u1: 'a1' }, { u1: 'a2' }),
} as const;
type Field = keyof typeof edits;
const fields = Object.keys(edits) as Field[];

const base: Conversation = {
  id: 'c',
  title: 'A',
  createdAt: 1,
  updatedAt: 1,
  messages: [],
  systemPrompt: 'Be brief.',
  choices: { protocol: 'chat', model: 'm1', reasoning: 'low' },
  selected: { '': 'u1' },
};

const tabEdits = fc.record(
  Object.fromEntries(
    fields.map((field) => [field, fc.option(edits[field] as fc.Arbitrary<unknown>, { nil: null })]),
  ) as {
    [F in Field]: fc.Arbitrary<unknown>;
  },
);

function edited(changes: Record<Field, unknown>, updatedAt: number): Conversation {
  const copy: Record<string, unknown> = { ...structuredClone(base), updatedAt };
  for (const field of fields) {
    if (changes[field] === null) continue; // not edited in this tab
    if (changes[field] === undefined) delete copy[field];
    else copy[field] = structuredClone(changes[field]);
  }
  return copy as unknown as Conversation;
}

describe('two tabs edit one conversation from a common base', () => {
  it('every field changed in one tab only keeps that change, whichever tab saves last', () => {
    fc.assert(
      fc.property(tabEdits, tabEdits, (a, b) => {
        const local = edited(a, 2);
        const remote = edited(b, 3);
        const merged = mergeConversation(local, remote, structuredClone(base)) as unknown as Record<
          string,
          unknown
        >;
        const original = base as unknown as Record<string, unknown>;
        // The choice at each fork is merged on its own.
        const forks = (value: unknown) => (value ?? {}) as Record<string, string>;
        for (const fork of ['', 'u1']) {
          const here = forks(a.selected === null ? original.selected : a.selected)[fork];
          const there = forks(b.selected === null ? original.selected : b.selected)[fork];
          const was = forks(original.selected)[fork];
          expect(forks(merged.selected)[fork]).toBe(here !== was ? here : there);
        }
        for (const field of fields.filter((f) => f !== 'selected')) {
          const changedHere =
            a[field] !== null && JSON.stringify(a[field]) !== JSON.stringify(original[field]);
          const changedThere =
            b[field] !== null && JSON.stringify(b[field]) !== JSON.stringify(original[field]);
          if (changedHere) expect(merged[field]).toEqual(a[field]);
          else if (changedThere) expect(merged[field]).toEqual(b[field]);
          else expect(merged[field]).toEqual(original[field]);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('a field added later is merged too, without naming it', () => {
    const withNew = (value: string) => ({ ...base, laterField: value }) as Conversation;
    const local = { ...withNew('old'), title: 'Mine' };
    const merged = mergeConversation(local, withNew('theirs'), withNew('old')) as Conversation & {
      laterField: string;
    };
    expect(merged.laterField).toBe('theirs');
    expect(merged.title).toBe('Mine');
  });
});
