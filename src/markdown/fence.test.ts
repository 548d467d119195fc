import { describe, expect, it } from 'vitest';
import { codeLanguage, fencedCode } from './fence.ts';

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
