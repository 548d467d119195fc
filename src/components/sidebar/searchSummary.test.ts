import { describe, expect, it } from 'vitest';
import { ja } from '../../i18n/catalogs/ja.ts';
import { zhCN } from '../../i18n/catalogs/zh-CN.ts';
import { createI18n } from '../../i18n/i18n.tsx';
import { outcomeSummary, withStillReading } from './searchSummary.ts';

const results = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ id: `c${i}`, title: { text: '', ranges: [] }, snippet: null }));

describe('outcomeSummary', () => {
  it.each([
    [0, 0, ' café ', 'No conversation matches “café”.'],
    [1, 1, 'x', '1 conversation matches.'],
    [3, 3, 'x', '3 conversations match.'],
    [1200, 50, 'x', '1,200 conversations match, the first 50 shown.'],
  ])('%i found, %i shown → %j', (total, shown, query, words) => {
    expect(outcomeSummary(createI18n('en'), { total, results: results(shown) }, query)).toBe(words);
  });

  it('speaks the language in use', () => {
    const japanese = createI18n('ja', ja);
    expect(outcomeSummary(japanese, { total: 1200, results: results(50) }, 'x')).toBe(
      '1,200 件の会話が一致（最初の 50 件を表示）。',
    );
    expect(outcomeSummary(japanese, { total: 0, results: [] }, '東京')).toBe(
      '「東京」に一致する会話はありません。',
    );
  });
});

describe('withStillReading', () => {
  const counted = { kind: 'counted', count: 1200 } as const;

  it('says nothing more once every conversation is read', () => {
    expect(withStillReading(createI18n('en'), '1 conversation matches.', { kind: 'none' })).toBe(
      '1 conversation matches.',
    );
  });

  it('joins the two sentences as each language writes them', () => {
    expect(withStillReading(createI18n('en'), '1 conversation matches.', counted)).toBe(
      '1 conversation matches. 1,200 older conversations are still being read: the results will include them.',
    );
    expect(withStillReading(createI18n('ja', ja), '1 件の会話が一致。', { kind: 'uncounted' })).toBe(
      '1 件の会話が一致。古い会話を読み込み中です。読み込みが終わると結果に含まれます。',
    );
    expect(withStillReading(createI18n('zh-CN', zhCN), '1 个对话匹配。', counted)).toBe(
      '1 个对话匹配。仍在读取 1,200 个较早的对话：读取后会出现在结果中。',
    );
  });
});
