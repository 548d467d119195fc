import { describe, expect, it } from 'vitest';
import { negotiateLocale, resolveLocale } from './locales.ts';

describe('negotiateLocale', () => {
  it.each([
    [['es-MX'], 'es'],
    [['es-419', 'en'], 'es'],
    [['ja-JP'], 'ja'],
    [['ja'], 'ja'],
    [['zh-CN'], 'zh-CN'],
    [['zh'], 'zh-CN'],
    [['zh-SG'], 'zh-CN'],
    [['zh-Hans-CN'], 'zh-CN'],
    [['en-GB'], 'en'],
    [['fr-FR', 'de'], 'en'],
    [['fr-FR', 'ja-JP', 'en'], 'ja'],
    [[], 'en'],
    [['not a tag', 'es'], 'es'],
  ])('%j → %s', (preferred, locale) => {
    expect(negotiateLocale(preferred)).toBe(locale);
  });

  it('gives Traditional Chinese readers another language of theirs first, else Simplified Chinese', () => {
    expect(negotiateLocale(['zh-TW', 'en-US'])).toBe('en');
    expect(negotiateLocale(['zh-HK', 'ja'])).toBe('ja');
    expect(negotiateLocale(['zh-TW'])).toBe('zh-CN');
    expect(negotiateLocale(['zh-Hant', 'fr'])).toBe('zh-CN');
  });
});

describe('resolveLocale', () => {
  it('takes the choice made in Settings over the browser', () => {
    expect(resolveLocale('ja', ['es-ES'])).toBe('ja');
    expect(resolveLocale('en', ['zh-CN'])).toBe('en');
  });

  it('follows the browser when automatic, or when the choice is one this version does not speak', () => {
    expect(resolveLocale('auto', ['es-ES'])).toBe('es');
    expect(resolveLocale('fr', ['zh-CN'])).toBe('zh-CN');
  });
});
