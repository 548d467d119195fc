/**
 * Test-only: the property checks every template reader must pass (`<protocol>/fastDecode.test.ts`). For each
 * data string a reader returns either `undefined` (fall back to JSON.parse) or a value deep-equal to
 * `JSON.parse(data)`, keys in the same order, and never anything for text JSON.parse rejects.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { createSseParser } from '../sse/parser.ts';
import type { FastReader } from './fastEvents.ts';

/** `FC_SEED=…` replays a failing run. */
export const fcSeed = process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {};

/** The contract, for one reader and one data string. */
export function agrees(read: FastReader, data: string): boolean {
  const fast = read(data);
  if (fast === undefined) return true;
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    throw new Error(`fast path accepted invalid JSON: ${data}`);
  }
  expect(fast).toStrictEqual(parsed);
  expect(Object.keys(fast)).toEqual(Object.keys(parsed as object));
  return true;
}

/** The data of every event in a stream's bytes. */
export function eventData(bytes: Uint8Array): string[] {
  const out: string[] = [];
  const parser = createSseParser((item) => {
    if (item.type === 'event') out.push(item.data);
  });
  parser.feed(new TextDecoder().decode(bytes));
  parser.end();
  return out;
}

/** Pieces that stress the string and number rules, spliced into and around real templates. */
export const tricky = fc.constantFrom(
  '"',
  '\\',
  '\\"',
  '\\\\',
  '\\n',
  '\\u0041',
  '\\u00e9',
  '\\ud83d\\ude80',
  '\\ud83d',
  '\\u12',
  '\\x',
  '\\/',
  '\\b',
  '\\f',
  '\\r',
  '\\t',
  '\\u00E9',
  '\\uD83D\\uDE80',
  '\\uDE80\\uD83D',
  '\\uzzzz',
  '\\U0041',
  '\\u004',
  '\ud83d',
  '🚀',
  '\u0000',
  '\n',
  '\t',
  '\u001f',
  '\u007f',
  ' ',
  '-1',
  '01',
  '1e3',
  '1.5',
  '-0',
  '1E+2',
  '123456789012345678',
  '}',
  ']',
  ',',
  ':',
  'null',
  '__proto__',
);
const piece = fc.oneof(fc.string({ maxLength: 6, unit: 'binary' }), tricky, fc.integer().map(String));

/** Every JSON escape, alone, all in a run, and in a run between letters: string-literal bodies. */
const escapes = [
  '\\"',
  '\\\\',
  '\\/',
  '\\b',
  '\\f',
  '\\n',
  '\\r',
  '\\t',
  '\\u0041',
  '\\u00e9',
  '\\uFFFF',
  '\\ud83d\\ude80',
];
export const escapeLiterals = [...escapes, escapes.join(''), `a${escapes.join('b')}c`];

/**
 * Random edits of the templates (insert, replace, truncate), every reader on each. Each data string is read
 * twice, so that the remembered prefixes, middles and headers are exercised as well as the first read.
 */
export function checkEditedTemplates(readers: FastReader[], templates: string[]): void {
  fc.assert(
    fc.property(
      fc.constantFrom(...templates),
      fc.array(fc.tuple(fc.nat(), fc.nat({ max: 3 }), piece), { minLength: 1, maxLength: 4 }),
      (template, edits) => {
        let data = template;
        for (const [at, removed, inserted] of edits) {
          const i = at % (data.length + 1);
          data = data.slice(0, i) + inserted + data.slice(i + removed);
        }
        for (const read of readers) {
          agrees(read, template);
          agrees(read, data);
          agrees(read, data);
        }
        const cut = edits[0]![0] % (data.length + 1);
        for (const read of readers) agrees(read, data.slice(0, cut));
      },
    ),
    { numRuns: 3000, ...fcSeed },
  );
}

/** The templates with their strings and numbers replaced by arbitrary ones, every reader on each, twice. */
export function checkArbitraryValues(readers: FastReader[], templates: string[]): void {
  const text = fc.oneof(
    fc.string({ unit: 'binary' }),
    fc.array(tricky).map((xs) => xs.join('')),
  );
  const literal = fc.oneof(
    text.map((s) => JSON.stringify(s)),
    text.map((s) => `"${s}"`),
  );
  const number = fc.oneof(
    fc.nat().map(String),
    tricky.filter((t) => /^[-\d]/.test(t)),
  );
  fc.assert(
    fc.property(fc.constantFrom(...templates), fc.array(fc.tuple(literal, number)), (template, values) => {
      let k = 0;
      const data = template.replace(/"[^"\\]*(?:\\.[^"\\]*)*"(?=[,}\]])|\d+/g, (match) => {
        const value = values[k++ % Math.max(values.length, 1)];
        if (value === undefined) return match;
        return match.startsWith('"') ? value[0] : value[1];
      });
      for (const read of readers) {
        agrees(read, data);
        agrees(read, data);
      }
    }),
    { numRuns: 3000, ...fcSeed },
  );
}
