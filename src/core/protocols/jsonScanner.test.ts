/**
 * The scanner's primitives agree with JSON.parse: a string literal or an integer is either declined or read
 * to exactly JSON.parse's value, with the cursor just after it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeLiterals, fcSeed, tricky } from '../testing/fastDecodeChecks.ts';
import { JsonScanner } from './jsonScanner.ts';

/** JSON.parse's reading of `text`, or undefined when it rejects it. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

describe('JsonScanner', () => {
  it('reads a string literal as JSON.parse does, or declines it', () => {
    const body = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.array(tricky).map((xs) => xs.join('')),
    );
    const literal = fc.oneof(
      body.map((s) => JSON.stringify(s)),
      body.map((s) => `"${s}"`),
    );
    fc.assert(
      fc.property(literal, fc.constantFrom('', ',', '}'), (text, after) => {
        const json = new JsonScanner();
        json.begin(text + after, '');
        const value = json.str();
        const whole = parsed(text);
        if (value === undefined) {
          // Declined: only text that is not a valid literal.
          expect(typeof whole).not.toBe('string');
          return;
        }
        // Read up to its closing quote: exactly what JSON.parse makes of that much.
        expect(value).toBe(parsed(text.slice(0, json.pos)));
        if (typeof whole === 'string') expect(json.pos).toBe(text.length);
      }),
      { numRuns: 5000, ...fcSeed },
    );
  });

  it('decodes every escape', () => {
    for (const body of escapeLiterals) {
      const json = new JsonScanner();
      json.begin(`"${body}"`, '');
      expect(json.str()).toBe(JSON.parse(`"${body}"`));
      expect(json.done()).toBe(true);
    }
  });

  it('reads a non-negative integer of up to 15 digits as JSON.parse does, or gives -1', () => {
    const number = fc.oneof(
      fc.nat().map(String),
      fc.bigInt({ min: 0n, max: 10n ** 18n }).map(String),
      tricky.filter((t) => /^[-\d]/.test(t)),
      fc.stringMatching(/^[-+0-9.eE]{1,8}$/),
    );
    fc.assert(
      fc.property(number, fc.constantFrom('', ',', '}'), (text, after) => {
        const json = new JsonScanner();
        json.begin(text + after, '');
        const value = json.int();
        const whole = parsed(text);
        const template = typeof whole === 'number' && /^\d{1,15}$/.test(text);
        if (value === -1) {
          expect(template).toBe(false);
          expect(json.pos).toBe(0);
          return;
        }
        // The digits read are exactly a JSON integer, and no fraction or exponent follows them.
        expect(value).toBe(parsed(text.slice(0, json.pos)));
        expect(text.slice(0, json.pos)).toMatch(/^(0|[1-9]\d{0,14})$/);
        expect(text.charAt(json.pos)).not.toMatch(/[\d.eE]/);
        if (template) expect(json.pos).toBe(text.length);
      }),
      { numRuns: 5000, ...fcSeed },
    );
  });

  it('matches fixed text, single characters and whitespace, and ends only at the last character', () => {
    const json = new JsonScanner();
    expect(json.begin('{"a":1 \n\t\r}', '{"a":')).toBe(true);
    expect(json.lit('2')).toBe(false);
    expect(json.int()).toBe(1);
    json.spaces();
    expect(json.ch(125)).toBe(true);
    expect(json.done()).toBe(true);
    expect(json.begin('{"a":1}x', '{"a":1}')).toBe(true);
    expect(json.done()).toBe(false);
    expect(json.begin('{"b"', '{"a"')).toBe(false);
  });
});
