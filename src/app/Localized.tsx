import type { ReactNode } from 'react';
import { useSettings } from '../hooks/useStores.ts';
import { I18nProvider } from '../i18n/I18nProvider.tsx';
import type { I18n } from '../i18n/i18n.tsx';
import { resolveLocale } from '../i18n/locales.ts';
import { useBrowserLanguages } from './useBrowserLanguages.ts';

/** The app in the language chosen in Settings, or the browser's when that is Automatic. */
export function Localized({ initial, children }: { initial?: I18n; children: ReactNode }) {
  const choice = useSettings((s) => s.settings.language);
  const locale = resolveLocale(choice, useBrowserLanguages());
  return (
    <I18nProvider locale={locale} initial={initial}>
      {children}
    </I18nProvider>
  );
}
