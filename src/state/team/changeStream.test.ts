import { describe, expect, it } from 'vitest';
import { readStreamEvent } from './changeStream.ts';

const one = { kind: 'conversation', id: 'conv_a', version: 2, deleted: false };

describe('readStreamEvent', () => {
  it('reads a change, its place from the event id', () => {
    expect(readStreamEvent('change', JSON.stringify(one), '7')).toEqual({
      kind: 'change',
      change: { ...one, position: 7 },
    });
  });

  it('reads a page of missed changes, each with its own place, in order', () => {
    const page = [
      { ...one, change: 7 },
      { kind: 'settings', id: 'settings', version: 3, deleted: false, change: 9 },
    ];
    expect(readStreamEvent('changes', JSON.stringify(page), '9')).toEqual({
      kind: 'changes',
      changes: [
        { ...one, position: 7 },
        { kind: 'settings', id: 'settings', version: 3, deleted: false, position: 9 },
      ],
    });
  });

  it.each([
    ['not JSON', '[{'],
    ['not a list', JSON.stringify({ ...one, change: 7 })],
    ['a change without its place', JSON.stringify([one])],
    ['a place that is no count', JSON.stringify([{ ...one, change: -1 }])],
    ['a kind it does not know', JSON.stringify([{ ...one, kind: 'folder', change: 7 }])],
  ])('ignores a page that is %s', (_, data) => {
    expect(readStreamEvent('changes', data, '7')).toBeUndefined();
  });

  it('ignores a change without a sound place, and events it does not know', () => {
    expect(readStreamEvent('change', JSON.stringify(one), 'x')).toBeUndefined();
    expect(readStreamEvent('message', JSON.stringify(one), '7')).toBeUndefined();
    expect(readStreamEvent('ready', '{}', '')).toEqual({ kind: 'ready' });
  });
});
