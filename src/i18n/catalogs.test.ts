import { parse } from '@formatjs/icu-messageformat-parser';
import { isStructurallySame } from '@formatjs/icu-messageformat-parser/manipulator.js';
import { describe, expect, it } from 'vitest';
import { failureCodes, finishNoticeCodes } from '../core/index.ts';
import { type Catalog, en } from './catalogs/en.ts';
import { es } from './catalogs/es.ts';
import { ja } from './catalogs/ja.ts';
import { zhCN } from './catalogs/zh-CN.ts';

const translations: [string, Catalog][] = [
  ['es', es],
  ['zh-CN', zhCN],
  ['ja', ja],
];

describe.each(translations)('the %s catalog', (_locale, catalog) => {
  it('has every key English has, and no other', () => {
    expect(Object.keys(catalog).sort()).toEqual(Object.keys(en).sort());
  });

  it('has, in each message, the placeholders, plurals, selects and tags of the English one', () => {
    const differing = Object.entries(en).flatMap(([key, english]) => {
      const translated = catalog[key as keyof Catalog];
      if (translated === undefined) return [];
      const same = isStructurallySame(parse(english), parse(translated));
      return same.success ? [] : [`${key}: ${same.error?.message}`];
    });
    expect(differing).toEqual([]);
  });
});

describe('the English catalog', () => {
  it('parses, every message', () => {
    for (const [key, message] of Object.entries(en)) expect(() => parse(message), key).not.toThrow();
  });

  it('explains every failure and every ending the core names', () => {
    const keys = new Set(Object.keys(en));
    const missing = [
      ...failureCodes.flatMap((code) => [`failure.${code}.title`, `failure.${code}.advice`]),
      ...finishNoticeCodes.flatMap((code) => [`finish.${code}.title`, `finish.${code}.advice`]),
    ].filter((key) => !keys.has(key));
    expect(missing).toEqual([]);
  });
});
