import fc from 'fast-check';
import type { ElementContent, Root as HastRoot } from 'hast';
import { describe, expect, it } from 'vitest';
import { type ListParts, listParts, listSource } from './list.ts';
import { createMarkdownProcessor } from './processor.ts';
import { withoutPositions } from './testing/withoutPositions.ts';

const { toHast } = createMarkdownProcessor();

const eol: ElementContent = { type: 'text', value: '\n' };

/** The parts put together as one parse lays them out: line feeds around and between the items. */
function assembled(parts: ListParts): HastRoot {
  const items = parts.items.flatMap((item) => [eol, item]);
  const list = { ...parts.list, children: [...items, eol] };
  return { type: 'root', children: parts.lead.length > 0 ? [...parts.lead, eol, list] : [list] };
}

/** A parse that notes what it was given. */
function recordingParses() {
  const parsed: string[] = [];
  const parse = (markdown: string) => {
    parsed.push(markdown);
    return toHast(markdown);
  };
  return { parsed, parse };
}

/** The block parsed item by item, or null when the split leaves it to one parse. */
function byItems(block: string): HastRoot | null {
  const source = listSource(block);
  const parts = source && listParts(source, toHast, new Map());
  return parts && assembled(parts);
}

const inline = fc
  .array(
    fc.constantFrom(
      'word',
      'two words',
      '**bold**',
      '`code`',
      '[link](https://example.com)',
      '$x^2$',
      '<b>x</b>',
      '_em_',
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((parts) => parts.join(' '));

/** What may follow an item's first line, written as if the item's content starts at column 0. */
const extra = fc.oneof(
  inline.map((text) => [text]),
  inline.map((text) => ['', text]),
  fc
    .tuple(fc.constantFrom('-', '*', '1.'), fc.array(inline, { minLength: 1, maxLength: 3 }), fc.boolean())
    .map(([marker, texts, spread]) =>
      texts.flatMap((text, i) => [...(spread && i > 0 ? [''] : []), `${marker} ${text}`]),
    ),
  fc.boolean().map((closed) => ['```js', 'const a = 1;', '', 'a++;', ...(closed ? ['```'] : [])]),
  inline.map((text) => [`> ${text}`]),
);

const item = fc.record({
  task: fc.constantFrom('', '[ ] ', '[x] '),
  text: inline,
  extras: fc.array(extra, { maxLength: 2 }),
});

const list = fc
  .record({
    marker: fc.constantFrom('-', '*', '+', '1.', '1)', '3.', '10.'),
    items: fc.array(item, { minLength: 1, maxLength: 5 }),
    separators: fc.array(fc.constantFrom('\n', '\n\n'), { minLength: 5, maxLength: 5 }),
    // What indents an item's further lines: spaces to its content, or a tab (to column 4, past it).
    tabs: fc.boolean(),
    lead: fc.constantFrom(
      '',
      'Steps:',
      '# Title',
      'Some **text**\nover two lines',
      '> quoted',
      '<div>',
      '| a |',
    ),
    odd: fc.constantFrom(
      '',
      '',
      '',
      '',
      '',
      '',
      '* * *',
      '# Heading',
      '+ other',
      '  - misindented',
      '-',
      '\ttab',
      'lazy text',
    ),
  })
  .map(({ marker, items, separators, tabs, lead, odd }) => {
    const ordered = /\d/.test(marker);
    const first = ordered ? Number.parseInt(marker, 10) : 0;
    const written = items.map(({ task, text, extras }, i) => {
      const mark = ordered ? `${first + i}${marker.slice(-1)}` : marker;
      const pad = tabs ? '\t' : ' '.repeat(mark.length + 1);
      const rest = extras.flat().map((line) => (line === '' ? '' : pad + line));
      return [`${mark} ${task}${text}`, ...rest].join('\n');
    });
    const body = written.map((text, i) => (i === 0 ? text : separators[i]! + text)).join('');
    // Nothing the split leaves to one parse: no oddity, no code fence, no lead it does not take (a list
    // below a paragraph starts with a bullet or 1).
    const leadTaken = lead === '' || (!/^[<|>]/.test(lead) && (!ordered || first === 1));
    const ordinary = odd === '' && leadTaken && !body.includes('```');
    return { block: [lead, body, odd].filter((part) => part !== '').join('\n'), ordinary };
  });

describe('a list parsed item by item', () => {
  it('gives the same tree as one parse of the whole block, or leaves the block to one parse', {
    timeout: 60_000,
  }, () => {
    fc.assert(
      fc.property(list, fc.integer({ min: 1, max: 1_000 }), ({ block, ordinary }, cut) => {
        // An ordinary list is always split.
        if (ordinary) expect(listSource(block)).not.toBeNull();
        // The whole block, and the block as it streams in (cut anywhere, trailing blanks trimmed as a tail is).
        const streamed = block.slice(0, Math.max(1, Math.floor((block.length * cut) / 1_000))).trimEnd();
        for (const text of [block, streamed]) {
          const tree = byItems(text);
          if (tree !== null) expect(withoutPositions(tree)).toEqual(withoutPositions(toHast(text)));
        }
      }),
      { numRuns: 600 },
    );
  });

  it.each([
    ['a tight list', '- one\n- two **bold**\n- three'],
    ['a loose ordered list', '1. one\n\n2. two\n\n3. three'],
    ['an item spread over two paragraphs', '- one\n\n  more of one\n- two'],
    ['nested lists and code', '1. one\n   - a\n   - b\n2. two\n   ```js\n   x;\n   ```'],
    ['a list right below a paragraph', 'Steps:\n1. one\n2. two'],
    ['a task list', '- [ ] todo\n- [x] done'],
    ['a list nested with a tab', '- one\n\t- nested\n- two'],
    ['an ordered list that starts at 3', '3. three\n4. four'],
    ['a list whose last item has only its marker yet', '- one\n-'],
  ])('splits %s', (_, block) => {
    const tree = byItems(block);
    expect(tree).not.toBeNull();
    expect(withoutPositions(tree)).toEqual(withoutPositions(toHast(block)));
  });

  it.each([
    ['a lazy continuation line', '- one\ncontinued'],
    ['a second list', '- one\n+ two'],
    ['a thematic break', '- one\n* * *'],
    ['an item indented less than its content', '1. one\n - two'],
    ['an empty item before the end', '-\n- two'],
    ["an item's code fence left open before the next item", '- one\n  ```\n  code\n\n- two'],
    ['an ordered list not numbered 1 under a paragraph', 'Text\n2. two'],
    ['a list under a paragraph whose first item starts with a list', 'Text\n- *'],
    ['raw HTML before the list', '<div>\n- one'],
    ['no list', 'just text'],
  ])('leaves %s to one parse', (_, block) => {
    expect(listSource(block)).toBeNull();
  });

  it('parses a finished item once: a growing list parses only its last item again', () => {
    const items = Array.from({ length: 12 }, (_, i) => `- item ${i} with **bold**`);
    const cache = new Map();
    const { parsed, parse } = recordingParses();
    for (let n = 1; n <= items.length; n++) {
      const source = listSource(items.slice(0, n).join('\n'));
      expect(listParts(source!, parse, cache)).not.toBeNull();
    }
    expect(parsed).toEqual(items);
  });

  it('parses a loose list in loose form, each item once', () => {
    const { parsed, parse } = recordingParses();
    const cache = new Map();
    listParts(listSource('- a\n\n- b')!, parse, cache);
    listParts(listSource('- a\n\n- b\n\n- c')!, parse, cache);
    expect(parsed).toEqual(['- x\n\n- a\n\n- b', '- x\n\n- c']);
  });

  it('parses new items together, in one parse, and each alone when one of them is spread', () => {
    const { parsed, parse } = recordingParses();
    const cache = new Map();
    listParts(listSource('- a\n- b')!, parse, cache);
    listParts(listSource('- a\n- b\n- c\n- d')!, parse, cache);
    expect(parsed).toEqual(['- a\n- b', '- c\n- d']);

    parsed.length = 0;
    const spread = '- a\n- b\n\n  more of b\n- c';
    const parts = listParts(listSource(spread)!, parse, new Map());
    expect(withoutPositions(parts && assembled(parts))).toEqual(withoutPositions(toHast(spread)));
    // Together (loose as a whole), then each alone as tight, then all as loose, together.
    expect(parsed).toEqual([
      '- a\n- b\n\n  more of b\n- c',
      '- a',
      '- b\n\n  more of b',
      '- c',
      '- x\n\n- a\n\n- b\n\n  more of b\n\n- c',
    ]);
  });

  it('parses a growing last item only as loose once a finished item made the list loose', () => {
    const { parsed, parse } = recordingParses();
    const cache = new Map();
    listParts(listSource('- a\n\n  more of a\n- b')!, parse, cache);
    parsed.length = 0;
    const grown = '- a\n\n  more of a\n- b and more';
    const parts = listParts(listSource(grown)!, parse, cache);
    expect(withoutPositions(parts && assembled(parts))).toEqual(withoutPositions(toHast(grown)));
    expect(parsed).toEqual(['- x\n\n- b and more']);
  });
});
