/** The words for a request not sent over a parameter, in each language: whole, with its figures. */
import { describe, expect, it } from 'vitest';
import { requestProblem } from '../../core/index.ts';
import { es } from '../../i18n/catalogs/es.ts';
import { ja } from '../../i18n/catalogs/ja.ts';
import { zhCN } from '../../i18n/catalogs/zh-CN.ts';
import { createI18n } from '../../i18n/i18n.tsx';

const hi = [{ role: 'user' as const, text: 'Hi' }];
const problems = [
  requestProblem('messages', { model: 'm', messages: hi, temperature: 1.5 }),
  requestProblem('responses', { model: 'm', messages: hi, maxOutputTokens: 8 }),
  requestProblem('chat', { model: 'm', messages: hi, stop: ['a', 'b', 'c', 'd', 'e'] }),
  requestProblem('messages', {
    model: 'm',
    messages: hi,
    topP: 0.5,
    reasoning: { effort: 'low', budgetTokens: 2048 },
  }),
];

const languages = [createI18n('en'), createI18n('es', es), createI18n('ja', ja), createI18n('zh-CN', zhCN)];

describe('failure.not_sent.advice for parameters', () => {
  it('says in English what to change, and where', () => {
    const [en] = languages;
    const say = (i: number) =>
      en!.t('failure.not_sent.advice', { ...problems[i]!.values, problem: problems[i]!.code });
    expect(say(0)).toBe(
      'Anthropic Messages does not take Temperature 1.5: it takes a number from 0 to 1. Change it in Parameters.',
    );
    expect(say(1)).toBe(
      'Responses does not take Max output tokens 8: it takes a whole number of at least 16. Change it in Parameters.',
    );
    expect(say(2)).toBe(
      'Chat Completions takes at most 4 stop sequences (there are 5). Remove some in Parameters.',
    );
    expect(say(3)).toMatch(
      /^Anthropic Messages takes a Top P of 0\.95 to 1 only while thinking \(it is 0\.5\)/,
    );
  });

  it.each(languages.map((i18n) => [i18n.locale, i18n] as const))('%s: every figure, no code', (_, i18n) => {
    for (const problem of problems) {
      const text = i18n.t('failure.not_sent.advice', { ...problem!.values, problem: problem!.code });
      expect(text).not.toContain(problem!.code);
      expect(text).not.toMatch(/[{}]/);
    }
    const range = i18n.t('failure.not_sent.advice', { ...problems[0]!.values, problem: problems[0]!.code });
    expect(range).toMatch(/1[.,]5/);
  });
});
