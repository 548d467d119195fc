import type { TraceFigures } from '../../core/index.ts';
import type { MessageKey } from '../../i18n/catalogs/en.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import type { I18n } from '../../i18n/i18n.tsx';

/** Milliseconds as the inspector shows them: whole below 10 s (ungrouped, as the event list's), then tenths of seconds. */
function inspectorMs({ t, format }: Pick<I18n, 't' | 'format'>, value: number | null): string {
  if (value === null) return '—';
  return value < 10_000
    ? t('inspector.ms', { ms: String(Math.round(value)) })
    : t('inspector.seconds', { seconds: format.decimal(value / 1000, 1) });
}

/** Latency figures of one attempt, and what it cost, as a definition list people and tests can read by term. */
export function Figures({ figures, cost }: { figures: TraceFigures; cost?: string }) {
  const i18n = useI18n();
  const { t, format } = i18n;
  const ms = (value: number | null) => inspectorMs(i18n, value);
  const rate =
    figures.tokensPerSecond === null
      ? '—'
      : t('inspector.figure.rate', {
          rate: format.decimal(figures.tokensPerSecond, 1),
          counted: figures.tokensPerSecondSource === 'events' ? 'yes' : 'no',
        });
  const silence =
    figures.longestSilenceMs > 0
      ? t('inspector.figure.silenceAt', {
          silence: ms(figures.longestSilenceMs),
          at: ms(figures.longestSilenceStartMs),
        })
      : ms(figures.longestSilenceMs);
  // The test ids stay the English terms', whatever the language shown.
  const rows: [testId: string, term: MessageKey, value: string][] = [
    ['time-to-headers', 'inspector.figure.timeToHeaders', ms(figures.timeToHeadersMs)],
    ['time-to-first-token', 'inspector.figure.timeToFirstToken', ms(figures.timeToFirstTokenMs)],
    ['total-duration', 'inspector.figure.totalDuration', ms(figures.durationMs)],
    ['output-rate', 'inspector.figure.outputRate', rate],
    ['longest-silence', 'inspector.figure.longestSilence', silence],
    ['keepalives', 'inspector.figure.keepalives', format.count(figures.keepalives)],
    ['events', 'inspector.figure.events', format.count(figures.events)],
    ['bytes-received', 'inspector.figure.bytes', format.count(figures.bytes)],
  ];
  if (cost !== undefined) rows.push(['cost', 'cost.inspector', cost]);
  return (
    <dl className="figures" aria-label={t('inspector.figures')}>
      {rows.map(([testId, term, value]) => (
        <div key={testId}>
          <dt>{t(term)}</dt>
          <dd data-testid={`figure-${testId}`}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
