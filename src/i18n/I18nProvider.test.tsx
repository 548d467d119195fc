import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { es } from './catalogs/es.ts';
import { I18nProvider, useI18n } from './I18nProvider.tsx';
import { createI18n } from './i18n.tsx';
import type { Locale } from './locales.ts';

function Words() {
  const { t, rich, format } = useI18n();
  return (
    <p>
      {t('action.retry')} | {rich('banner.lead', { title: t('failure.aborted.title'), advice: '' })} |{' '}
      {format.count(12_345)}
    </p>
  );
}

afterEach(() => document.documentElement.removeAttribute('lang'));

describe('I18nProvider', () => {
  it('shows English until the language is loaded, then the language, and sets <html lang>', async () => {
    render(
      <I18nProvider locale="ja">
        <Words />
      </I18nProvider>,
    );
    expect(screen.getByRole('paragraph')).toHaveTextContent('Retry | Stopped. | 12,345');
    expect(await screen.findByText(/再試行/)).toHaveTextContent('再試行 | 停止しました。 | 12,345');
    expect(screen.getByText('停止しました。').tagName).toBe('STRONG');
    expect(document.documentElement.lang).toBe('ja');
  });

  it('starts in the language it was given loaded, and follows a change of locale', async () => {
    const { rerender } = render(
      <I18nProvider locale="en" initial={createI18n('en')}>
        <Words />
      </I18nProvider>,
    );
    expect(document.documentElement.lang).toBe('en');
    const to = (locale: Locale) =>
      rerender(
        <I18nProvider locale={locale} initial={createI18n('en')}>
          <Words />
        </I18nProvider>,
      );
    to('es');
    expect(await screen.findByText(/Reintentar/)).toHaveTextContent('Reintentar | Detenida. | 12.345');
    expect(document.documentElement.lang).toBe('es');
    await act(async () => to('zh-CN'));
    expect(await screen.findByText(/重试/)).toHaveTextContent('重试 | 已停止。 | 12,345');
    expect(document.documentElement.lang).toBe('zh-CN');
  });

  it('is English outside any provider', () => {
    render(<Words />);
    expect(screen.getByRole('paragraph')).toHaveTextContent('Retry | Stopped. | 12,345');
  });
});

describe('createI18n', () => {
  it('falls back to English for a message the catalog lacks', () => {
    const partial = createI18n('es', { 'action.retry': 'Reintentar' });
    expect(partial.t('action.retry')).toBe('Reintentar');
    expect(partial.t('action.stop')).toBe('Stop');
  });

  it('formats plurals and numbers in the language', () => {
    expect(createI18n('en').t('unreadable.recordings', { n: 1 })).toBe('1 recording');
    expect(createI18n('en').t('unreadable.recordings', { n: 1200 })).toBe('1,200 recordings');
    expect(createI18n('es', es).t('unreadable.recordings', { n: 1200 })).toBe('1200 grabaciones');
    expect(createI18n('es', es).t('unreadable.recordings', { n: 12_000 })).toBe('12.000 grabaciones');
  });
});
