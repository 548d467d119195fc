import { describe, expect, it } from 'vitest';
import { extractMath, hasFormulas, MAX_FORMULA_LENGTH, MAX_MATH_PER_PARSE } from './mathSyntax.ts';

/** The formulas found in `source`, as [tex, display] pairs. */
const formulas = (source: string) =>
  extractMath(source)?.formulas.map(({ tex, display }) => [tex, display]) ?? [];

/** What the markdown parser is given: formulas as `<n>`. */
const parsed = (source: string) =>
  (extractMath(source)?.text ?? source).replace(/\uE000(\d+)\uE001/g, '<$1>');

describe('formulas', () => {
  it.each([
    ['$x^2$', 'x^2'],
    ['$\\alpha$', '\\alpha'],
    ['Energy: $E=mc^2$.', 'E=mc^2'],
    ['\\(\\sin\\theta\\)', '\\sin\\theta'],
    ['$a$, $b$', 'a'],
    ['**$x$**', 'x'],
    ['$\\$5$', '\\$5'],
  ])('%s is inline math', (source, tex) => {
    expect(formulas(source)[0]).toEqual([tex, false]);
  });

  it.each([
    ['$$x^2$$', 'x^2'],
    ['$$\n\\int_0^1 x\\,dx\n$$', '\\int_0^1 x\\,dx'],
    ['\\[ x = \\frac{a}{b} \\]', 'x = \\frac{a}{b}'],
    ['\\[\nx\n\\]', 'x'],
    ['The sum $$a+b$$ here', 'a+b'],
  ])('%j is displayed math', (source, tex) => {
    expect(formulas(source)).toEqual([[tex, true]]);
  });

  it('takes every formula of a paragraph, in order', () => {
    expect(parsed('Let $a$ and \\(b\\) give $$c$$ or \\[d\\].')).toBe('Let <0> and <1> give <2> or <3>.');
    expect(formulas('Let $a$ and \\(b\\) give $$c$$ or \\[d\\].')).toEqual([
      ['a', false],
      ['b', false],
      ['c', true],
      ['d', true],
    ]);
  });

  it('keeps what the formula was written as', () => {
    expect(extractMath('x \\(a_1\\) y')?.formulas[0]?.source).toBe('\\(a_1\\)');
  });

  it('leaves quote markers out of a displayed formula inside a quote', () => {
    expect(formulas('> $$\n> a \\\\\n> b\n> $$')).toEqual([['a \\\\\nb', true]]);
  });
});

describe('prices stay text', () => {
  it.each([
    '$5 and $10',
    'costs $5.',
    '$ 5',
    'between $3 and $4 million',
    'US$10',
    'US$10 or US$20',
    'from $5-$10',
    'about $1,000 (or $12k)',
    'escaped \\$x\\$ dollars',
    '\\$5 and \\$10',
    'a lone $',
    '$$',
  ])('%j has no formula', (source) => {
    expect(extractMath(source)).toBeNull();
    expect(hasFormulas(source)).toBe(false);
  });

  it('a price before a formula does not swallow it', () => {
    expect(formulas('Pay $5 for $x^2$')).toEqual([['x^2', false]]);
    expect(formulas('Pay $5 for \\(x^2\\)')).toEqual([['x^2', false]]);
  });
});

describe('where formulas are not looked for', () => {
  it.each([
    '`$x$`',
    '``a ` $x$ ``',
    '```\n$x$\n```',
    '~~~tex\n\\[x\\]\n~~~',
    '- item\n  ```\n  $x$\n  ```',
    // A line with an info string inside a fence is code, not its end.
    '```md\n```js\n$x$\n```',
  ])('%j is code', (source) => {
    expect(formulas(source)).toEqual([]);
  });

  it('after code, formulas are found again', () => {
    expect(formulas('`$a$` and $b$')).toEqual([['b', false]]);
    expect(formulas('```\n$a$\n```\n$b$')).toEqual([['b', false]]);
  });

  it('a formula started before a code span contains it', () => {
    expect(formulas('$a `b$ c`')).toEqual([['a `b', false]]);
  });

  it('never across a blank line', () => {
    expect(formulas('$a\n\nb$')).toEqual([]);
    expect(formulas('$$\na\n\nb\n$$')).toEqual([]);
    expect(formulas('$a\nb$')).toEqual([['a\nb', false]]);
  });
});

describe('formulas still arriving', () => {
  it('an open $$ block stays text as written until it closes', () => {
    expect(extractMath('$$\n\\int_0^1 x')).toBeNull();
    expect(formulas('$$\n\\int_0^1 x\n$$')).toEqual([['\\int_0^1 x', true]]);
  });

  it('an open \\[ or \\( keeps its backslash until it closes', () => {
    expect(parsed('\\[ x = \\frac{a}')).toBe('\\\\[ x = \\frac{a}');
    expect(parsed('Then \\(x')).toBe('Then \\\\(x');
    expect(formulas('Then \\(x')).toEqual([]);
  });

  it('an open $ stays text', () => {
    expect(extractMath('so $x^2 + ')).toBeNull();
  });
});

describe('bounds', () => {
  it('a formula longer than the limit stays text', () => {
    expect(formulas(`$${'x'.repeat(MAX_FORMULA_LENGTH)}$`)).toHaveLength(1);
    expect(formulas(`$${'x'.repeat(MAX_FORMULA_LENGTH + 1)}$`)).toEqual([]);
  });

  it('past the TeX one parse may hold, the rest stays text', () => {
    const formula = `$${'x'.repeat(999)}$`;
    const source = Array.from({ length: 15 }, () => formula).join(' ');
    expect(formulas(source)).toHaveLength(Math.floor(MAX_MATH_PER_PARSE / 999));
  });

  it('text holding the placeholder character is parsed as it is', () => {
    expect(extractMath('\uE000 $x$')).toBeNull();
  });

  it('scans long hostile input in linear time', () => {
    // Every search for a closing delimiter would otherwise run to the end: quadratic, seconds.
    const source = `${'\\( $a '.repeat(40_000)}${'`'.repeat(3)}x${'` '.repeat(40_000)}`;
    expect(extractMath(source)?.formulas).toEqual([]);
  });
});
