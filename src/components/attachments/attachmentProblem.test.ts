import { describe, expect, it } from 'vitest';
import { es } from '../../i18n/catalogs/es.ts';
import { ja } from '../../i18n/catalogs/ja.ts';
import { createI18n } from '../../i18n/i18n.tsx';
import type { AttachmentProblem } from '../../state/domain/attachmentFiles.ts';
import { describeAttachmentProblem } from './attachmentProblem.ts';

const english = createI18n('en');
const say = (problem: AttachmentProblem, i18n = english) => describeAttachmentProblem(i18n, problem);

describe('describeAttachmentProblem', () => {
  it.each<[AttachmentProblem, string]>([
    [{ code: 'empty', name: 'empty.md' }, 'empty.md is empty.'],
    [
      { code: 'not_utf8', name: 'notes.txt' },
      'notes.txt is not UTF-8 text: save it as UTF-8, then attach it again.',
    ],
    [
      { code: 'unsupported', name: 'report.pdf' },
      'report.pdf cannot be attached: only images (PNG, JPEG, WebP, GIF) and text or code files (UTF-8) can.',
    ],
    [
      { code: 'image_kind', name: 'IMG_1.HEIC', extension: 'HEIC' },
      'IMG_1.HEIC is an image of a kind the models do not take (HEIC): use PNG, JPEG, WebP or GIF.',
    ],
    [
      { code: 'image_kind', name: 'scan', extension: '' },
      'scan is an image of a kind the models do not take: use PNG, JPEG, WebP or GIF.',
    ],
    [
      { code: 'image_too_large', name: 'big.png', bytes: 4_200_000, limit: 3_750_000 },
      'big.png is 4.2 MB; an image can be at most 3.75 MB.',
    ],
    [
      { code: 'text_too_large', name: 'log.txt', bytes: 612_000, limit: 500_000 },
      'log.txt is 612 kB; a text file can be at most 500 kB.',
    ],
    [
      { code: 'message_too_large', name: 'big.png', bytes: 15_500_000, limit: 15_000_000 },
      'big.png was not attached: with it this message would carry 15.5 MB of files, and the most is 15 MB.',
    ],
    [
      { code: 'too_many', name: 'c.png', limit: 10 },
      'c.png was not attached: a message can carry at most 10 files.',
    ],
    [
      { code: 'unreadable', name: 'gone.md', error: 'A requested file could not be found.' },
      'gone.md could not be read: A requested file could not be found.',
    ],
  ])('in English: %o', (problem, said) => {
    expect(say(problem)).toBe(said);
  });

  it("sizes in the language's number format", () => {
    const problem: AttachmentProblem = {
      code: 'image_too_large',
      name: 'foto.png',
      bytes: 4_250_000,
      limit: 3_750_000,
    };
    expect(say(problem, createI18n('es', es))).toBe(
      'foto.png ocupa 4,25 MB; una imagen puede ocupar como máximo 3,75 MB.',
    );
    expect(say({ code: 'too_many', name: '写真.png', limit: 10 }, createI18n('ja', ja))).toBe(
      '「写真.png」は添付していません。1 つのメッセージに添付できるファイルは 10 個までです。',
    );
  });
});
