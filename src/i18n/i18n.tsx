import type { ReactNode } from 'react';
import { createIntl } from 'react-intl';
import { type Catalog, en, type MessageKey } from './catalogs/en.ts';
import { createFormatters, type Formatters } from './format.ts';
import type { Locale } from './locales.ts';

type Value = string | number;
type RichValue = Value | ReactNode | ((chunks: ReactNode[]) => ReactNode);

/** One language's words and formats: what components get from `useI18n()`. */
export interface I18n {
  locale: Locale;
  /** A message as plain text: labels, attributes, accessible names. */
  t(key: MessageKey, values?: Readonly<Record<string, Value>>): string;
  /** A message that may hold markup (`<strong>`, or tags whose element `values` supplies). */
  rich(key: MessageKey, values?: Readonly<Record<string, RichValue>>): ReactNode;
  format: Formatters;
}

const strong = (chunks: ReactNode[]) => <strong>{chunks}</strong>;

/** `messages`: the language's catalog; a message it lacks is English's. */
export function createI18n(locale: Locale, messages: Partial<Catalog> = {}): I18n {
  const intl = createIntl({
    locale,
    defaultLocale: 'en',
    messages: { ...en, ...messages },
  });
  return {
    locale,
    t: (key, values) => intl.formatMessage({ id: key }, values),
    rich: (key, values) => intl.formatMessage({ id: key }, { strong, ...values }),
    format: createFormatters(locale),
  };
}
