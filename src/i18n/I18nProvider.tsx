import { createContext, type ReactNode, useContext, useEffect, useLayoutEffect, useState } from 'react';
import { createI18n, type I18n } from './i18n.tsx';
import { loadCatalog } from './loadCatalog.ts';
import type { Locale } from './locales.ts';

const I18nContext = createContext<I18n | null>(null);

/**
 * The words and formats of the language in use. Outside a provider (a component rendered on its own in a
 * test) they are English's, made for that component: no language is kept by a module.
 */
export function useI18n(): I18n {
  const i18n = useContext(I18nContext);
  const [english] = useState(() => (i18n ? null : createI18n('en')));
  // A component is inside a provider or outside it for its whole life.
  return i18n ?? english!;
}

export interface I18nProviderProps {
  locale: Locale;
  /** The first language, loaded before the first render so its words show from the first paint. */
  initial?: I18n;
  children: ReactNode;
}

/**
 * Gives `locale`'s words to everything inside once its catalog has loaded, and until then those of the
 * language before (English at first). `<html lang>` follows, for screen readers, fonts and hyphenation.
 */
export function I18nProvider({ locale, initial, children }: I18nProviderProps) {
  const [i18n, setI18n] = useState<I18n>(() => initial ?? createI18n('en'));
  useEffect(() => {
    if (i18n.locale === locale) return;
    let wanted = true;
    loadCatalog(locale).then(
      (messages) => wanted && setI18n(createI18n(locale, messages)),
      // A catalog that cannot be fetched (offline, a new deployment): the words stay as they are.
      (error: unknown) => console.warn(`The ${locale} messages could not be loaded`, error),
    );
    return () => {
      wanted = false;
    };
  }, [locale, i18n.locale]);
  useLayoutEffect(() => {
    document.documentElement.lang = i18n.locale;
  }, [i18n.locale]);
  return <I18nContext.Provider value={i18n}>{children}</I18nContext.Provider>;
}
