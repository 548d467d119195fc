import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { byLines, codeLanguage, fencedCode } from './fence.ts';

describe('a code fence’s language', () => {
  it('is the first word of the info string, as far as it is a language name', () => {
    expect(fencedCode('```ts title="x"\nlet a;\n```')?.language).toBe('ts');
    expect(fencedCode('```c++\nint a;\n```')?.language).toBe('c++');
    expect(fencedCode('~~~objective-c.m#x_1\n~~~')?.language).toBe('objective-c.m#x_1');
  });

  it('never carries other whitespace or characters that would add classes to the code element', () => {
    for (const info of ['js\fhidden', 'js\vx', 'js\u00a0x', 'js\u2028x', 'js"onclick', 'js<b>', 'js\u3000x'])
      expect(fencedCode(`\`\`\`${info}\ncode\n\`\`\``)?.language).toBe('js');
    expect(fencedCode('```\f hidden\ncode\n```')?.language).toBe('');
    expect(codeLanguage('python\fmd-too-deep')).toBe('python');
    expect(codeLanguage('{.python}')).toBe('');
  });
});

describe('a fence’s code, read in one scan', () => {
  // The by-lines reading is the plain statement of the rules; the one scan must agree with it everywhere.
  const pieces = ['```', '````', '~~~', '`', ' ', '   ', '\t', 'a', 'x y', '\n', '\n', '\n```', '\n  ```  '];
  const body = fc.array(fc.constantFrom(...pieces), { maxLength: 30 }).map((parts) => parts.join(''));

  it('gives what the by-lines reading gives, for backtick and tilde fences', () => {
    fc.assert(
      fc.property(body, fc.constantFrom('```', '````', '~~~'), (text, marks) => {
        const closing = new RegExp(`^ {0,3}${marks[0]}{${marks.length},}[ \\t]*$`);
        expect(fencedCode(`${marks}js\n${text}`)).toEqual(byLines('js', text, 0, closing));
      }),
      { numRuns: 2_000 },
    );
  });

  it('a closing line, then more: not a block of code alone; closed at the end: its code without the fence', () => {
    expect(fencedCode('```\nlet a;\n```\nmore')).toBeNull();
    expect(fencedCode('```\nlet a;\nlet b;\n  ```  ')).toEqual({
      language: '',
      code: 'let a;\nlet b;',
      closed: true,
    });
    expect(fencedCode('```\n```')).toEqual({ language: '', code: '', closed: true });
    expect(fencedCode('```\nlet a;\n``')).toEqual({ language: '', code: 'let a;\n``', closed: false });
  });

  it('lines ending in CR, or a line separator in the code, read as before', () => {
    expect(fencedCode('```\r\nlet a;\r\n```')).toEqual({ language: '', code: 'let a;', closed: true });
    expect(fencedCode('```\na\u2028```\n```')).toEqual({ language: '', code: 'a\u2028```', closed: true });
  });
});
