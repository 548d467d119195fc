/** The languages HopBase Chat speaks: those its gateway's documentation is written in. */
export const locales = ['en', 'es', 'zh-CN', 'ja'] as const;

export type Locale = (typeof locales)[number];

/** Each language named in itself, as a person looking for theirs reads it. */
export const languageNames: Readonly<Record<Locale, string>> = {
  en: 'English',
  es: 'Español',
  'zh-CN': '简体中文',
  ja: '日本語',
};

/** The Settings choice: `auto` follows the browser's languages, or one of the locales. */
export const automaticLanguage = 'auto';

export function isLocale(value: string): value is Locale {
  return (locales as readonly string[]).includes(value);
}

type Match = { locale: Locale; exact: boolean } | null;

/** One of the browser's language tags, as a locale of ours; `exact: false` for Traditional Chinese. */
function matchTag(tag: string): Match {
  let parsed: Intl.Locale;
  try {
    parsed = new Intl.Locale(tag);
  } catch {
    return null;
  }
  switch (parsed.language) {
    case 'en':
      return { locale: 'en', exact: true };
    case 'es':
      return { locale: 'es', exact: true };
    case 'ja':
      return { locale: 'ja', exact: true };
    case 'zh':
      // zh, zh-CN, zh-SG and zh-Hans-* are written in Simplified characters; zh-TW, zh-HK, zh-MO and
      // zh-Hant-* in Traditional ones, which Simplified is only second best for (see negotiateLocale).
      // Maximized only here: its likely-subtags data costs a fresh tab 12-20 ms on first use.
      return { locale: 'zh-CN', exact: parsed.maximize().script === 'Hans' };
    default:
      return null;
  }
}

/**
 * The locale for the browser's preferred languages (`navigator.languages`, most preferred first): the first
 * one we speak. A reader of Traditional Chinese gets Simplified Chinese only when no other language of
 * theirs is ours: it is the same written language, mostly readable to them, but a language they listed
 * (English, Japanese) is one they chose to read. Nothing matched: English.
 */
export function negotiateLocale(preferred: readonly string[]): Locale {
  const matches = preferred.map(matchTag);
  const exact = matches.find((match) => match?.exact);
  return (exact ?? matches.find((match) => match !== null))?.locale ?? 'en';
}

/** The locale in use: the person's choice in Settings, or (automatic, or one this version lacks) the browser's. */
export function resolveLocale(choice: string, preferred: readonly string[]): Locale {
  return isLocale(choice) ? choice : negotiateLocale(preferred);
}
