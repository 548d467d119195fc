import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TraceFigures } from '../../core/index.ts';
import { es } from '../../i18n/catalogs/es.ts';
import { ja } from '../../i18n/catalogs/ja.ts';
import { zhCN } from '../../i18n/catalogs/zh-CN.ts';
import { I18nProvider } from '../../i18n/I18nProvider.tsx';
import { createI18n } from '../../i18n/i18n.tsx';
import type { Locale } from '../../i18n/locales.ts';
import { Figures } from './Figures.tsx';

const figures: TraceFigures = {
  timeToHeadersMs: 1234,
  timeToFirstTokenMs: 1500,
  durationMs: 25_200,
  tokensPerSecond: 1.75,
  tokensPerSecondSource: 'events',
  longestSilenceMs: 25_000,
  longestSilenceStartMs: 100,
  keepalives: 2,
  events: 12_345,
  bytes: 1_234_567,
};

const catalogs = { es, 'zh-CN': zhCN, ja } as const;

/** Each figure's term and value, as a reader of the list gets them. */
function shownIn(locale: Exclude<Locale, 'en'>) {
  const { unmount } = render(
    <I18nProvider locale={locale} initial={createI18n(locale, catalogs[locale])}>
      <Figures figures={figures} />
    </I18nProvider>,
  );
  const shown = screen
    .getAllByRole('term')
    .map((term) => `${term.textContent}: ${term.nextElementSibling?.textContent}`);
  unmount();
  return shown;
}

describe('Figures', () => {
  it('in Spanish: its terms, decimal commas and grouping points', () => {
    expect(shownIn('es')).toEqual([
      'Tiempo hasta las cabeceras: 1234 ms',
      'Tiempo hasta el primer token: 1500 ms',
      'Duración total: 25,2 s',
      'Velocidad de salida: 1,8 tok/s (deltas contados)',
      'Silencio más largo: 25,0 s en +100 ms',
      'Keepalives: 2',
      'Eventos: 12.345',
      'Bytes recibidos: 1.234.567',
    ]);
  });

  it('in Chinese and Japanese: their units', () => {
    expect(shownIn('zh-CN')).toContain('最长静默: 25.0\u00a0秒，始于 +100\u00a0毫秒');
    expect(shownIn('ja')).toContain('最長の無応答: 25.0\u00a0秒（+100\u00a0ms〜）');
  });
});
