import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMarkdownProcessor } from './processor.ts';
import { TABLE_ROWS_PER_GROUP, tableRows, tableTree } from './table.ts';
import { withoutPositions } from './testing/withoutPositions.ts';

const { toHast } = createMarkdownProcessor();

const cell = fc.oneof(
  fc.stringMatching(/^[a-z0-9 ]{0,8}$/),
  fc.constantFrom('**bold**', '`code`', 'a \\| b', '[link](https://example.com)', '~~old~~', ''),
);

describe('a table parsed in groups of rows', () => {
  it('gives the same tree as one parse of the whole table', { timeout: 15_000 }, () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.array(cell, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 30 }),
        fc.constantFrom('---', ':--', '--:', ':-:'),
        (columns, rows, align) => {
          const head = `| ${Array.from({ length: columns }, (_, i) => `h${i}`).join(' | ')} |`;
          const delimiter = `|${Array.from({ length: columns }, () => ` ${align} `).join('|')}|`;
          const source = [head, delimiter, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
          const table = tableRows(source);
          expect(table).not.toBeNull();
          const grouped = tableTree(table!, toHast, new Map());
          expect(withoutPositions(grouped)).toEqual(withoutPositions(toHast(source)));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('parses a finished group once: a growing table parses only its last group again', () => {
    const head = '| a | b |\n|---|---|';
    const rows = Array.from({ length: 3 * TABLE_ROWS_PER_GROUP + 2 }, (_, i) => `| ${i} | x${i} |`);
    const cache = new Map();
    const parsed: string[] = [];
    const parse = (source: string) => {
      parsed.push(source);
      return toHast(source);
    };
    for (let n = 1; n <= rows.length; n++) tableTree({ head, rows: rows.slice(0, n) }, parse, cache);
    // Every group parsed once per row it grew by, never again once complete.
    expect(parsed).toHaveLength(rows.length);
    for (const source of parsed)
      expect(source.split('\n').length).toBeLessThanOrEqual(2 + TABLE_ROWS_PER_GROUP);
  });

  it('is not taken for what is not a table alone', () => {
    expect(tableRows('| a | b |\n|---|---|\n| 1 | 2 |\n> quote')).toBeNull();
    expect(tableRows('| a | b |\nnot a delimiter\n| 1 | 2 |')).toBeNull();
    expect(tableRows('just text')).toBeNull();
    expect(tableRows('| a | b |\n|---|---|\n| 1 | 2 |')).toEqual({
      head: '| a | b |\n|---|---|',
      rows: ['| 1 | 2 |'],
    });
  });
});
