import { describe, expect, it } from 'vitest';
import {
  admitFiles,
  attachmentLimits,
  classifyFile,
  isUtf8Text,
  notTextProblem,
  sniffImage,
} from './attachmentFiles.ts';

const bytes = (...values: number[]) => new Uint8Array(values);
const text = (s: string) => new TextEncoder().encode(s);
const pngHead = bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13);
const webpHead = new Uint8Array([...text('RIFF'), 1, 2, 3, 4, ...text('WEBPVP8 ')]);

describe('sniffImage', () => {
  it.each([
    ['PNG', pngHead, 'image/png'],
    ['JPEG', bytes(0xff, 0xd8, 0xff, 0xe0), 'image/jpeg'],
    ['GIF89a', text('GIF89a...'), 'image/gif'],
    ['GIF87a', text('GIF87a...'), 'image/gif'],
    ['WebP', webpHead, 'image/webp'],
  ])('knows %s by its first bytes', (_name, head, type) => {
    expect(sniffImage(head)).toBe(type);
  });

  it.each([
    ['text', text('hello world')],
    ['a RIFF that is not WebP (WAV)', new Uint8Array([...text('RIFF'), 1, 2, 3, 4, ...text('WAVEfmt ')])],
    ['a PNG signature cut short', pngHead.subarray(0, 4)],
    ['nothing', bytes()],
  ])('finds no image in %s', (_name, head) => {
    expect(sniffImage(head)).toBeNull();
  });
});

describe('isUtf8Text', () => {
  it('takes UTF-8 text, any script', () => {
    expect(isUtf8Text(text('héllo 世界 🙂\n'))).toBe(true);
  });

  it('refuses a NUL byte, which no text file has', () => {
    expect(isUtf8Text(bytes(0x68, 0x00, 0x69))).toBe(false);
  });

  it('refuses bytes that are not UTF-8 (Latin-1 é)', () => {
    expect(isUtf8Text(bytes(0x63, 0x61, 0x66, 0xe9))).toBe(false);
  });

  it('takes a character cut at the end only when the bytes are a beginning', () => {
    const cut = text('世').subarray(0, 2);
    expect(isUtf8Text(cut, true)).toBe(true);
    expect(isUtf8Text(cut)).toBe(false);
  });
});

describe('classifyFile', () => {
  const file = (name: string, size: number, type = '') => ({ name, size, type });

  it('takes an image by its bytes, with the type they say (not the one declared)', () => {
    expect(classifyFile(file('photo.jpg', 2000, 'image/jpeg'), pngHead)).toEqual({
      ok: true,
      kind: 'image',
      mimeType: 'image/png',
    });
  });

  it('takes a text file of any name, a code file the browser calls video included', () => {
    expect(classifyFile(file('Makefile', 20), text('all:\n\techo hi\n'))).toEqual({
      ok: true,
      kind: 'text',
      mimeType: 'text/plain',
    });
    expect(classifyFile(file('main.ts', 20, 'video/mp2t'), text('export {};'))).toMatchObject({
      kind: 'text',
      mimeType: 'text/plain',
    });
    expect(classifyFile(file('notes.md', 20, 'text/markdown'), text('# Hi'))).toMatchObject({
      kind: 'text',
      mimeType: 'text/markdown',
    });
  });

  it('refuses an image over the image limit, naming the file and both sizes', () => {
    expect(classifyFile(file('big.png', 4_200_000, 'image/png'), pngHead)).toEqual({
      ok: false,
      problem: { code: 'image_too_large', name: 'big.png', bytes: 4_200_000, limit: 3_750_000 },
    });
  });

  it('refuses a text file over the text limit', () => {
    expect(classifyFile(file('log.txt', 612_000), text('line\n'))).toEqual({
      ok: false,
      problem: { code: 'text_too_large', name: 'log.txt', bytes: 612_000, limit: 500_000 },
    });
  });

  it('refuses an image of a kind the models do not take, naming the kind', () => {
    expect(classifyFile(file('IMG_1.HEIC', 900_000, 'image/heic'), bytes(0, 0, 0, 0x18))).toEqual({
      ok: false,
      problem: { code: 'image_kind', name: 'IMG_1.HEIC', extension: 'HEIC' },
    });
  });

  it('takes an SVG as the text it is', () => {
    expect(classifyFile(file('logo.svg', 40, 'image/svg+xml'), text('<svg/>'))).toMatchObject({
      kind: 'text',
    });
  });

  it('refuses a binary file as not attachable', () => {
    expect(classifyFile(file('report.pdf', 90_000, 'application/pdf'), bytes(0x25, 0x50, 0, 0xe2))).toEqual({
      ok: false,
      problem: { code: 'unsupported', name: 'report.pdf' },
    });
  });

  it('tells a text file that is not UTF-8 to be saved as UTF-8', () => {
    expect(classifyFile(file('notes.txt', 4), bytes(0x63, 0x61, 0x66, 0xe9))).toEqual({
      ok: false,
      problem: { code: 'not_utf8', name: 'notes.txt' },
    });
    expect(notTextProblem({ name: 'data.bin' })).toEqual({ code: 'unsupported', name: 'data.bin' });
  });

  it('refuses an empty file', () => {
    expect(classifyFile(file('empty.md', 0), bytes())).toEqual({
      ok: false,
      problem: { code: 'empty', name: 'empty.md' },
    });
  });
});

describe('admitFiles', () => {
  const named = (name: string, size: number) => ({ name, size });

  it('admits files up to the count, and names each one refused', () => {
    const current = Array.from({ length: attachmentLimits.files - 1 }, () => ({ size: 10 }));
    expect(admitFiles(current, [named('a.png', 10), named('b.png', 10), named('c.png', 10)])).toEqual({
      admitted: [named('a.png', 10)],
      problems: [
        { code: 'too_many', name: 'b.png', limit: 10 },
        { code: 'too_many', name: 'c.png', limit: 10 },
      ],
    });
  });

  it('admits files up to the size of a message, and may admit a smaller one after a refusal', () => {
    const current = [{ size: 12_000_000 }];
    expect(admitFiles(current, [named('big.png', 3_500_000), named('small.md', 2000)])).toEqual({
      admitted: [named('small.md', 2000)],
      problems: [{ code: 'message_too_large', name: 'big.png', bytes: 15_500_000, limit: 15_000_000 }],
    });
  });
});
