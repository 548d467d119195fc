import type { TraceFigures } from '../../core/index.ts';
import type { MessageKey } from '../../i18n/catalogs/en.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import type { I18n } from '../../i18n/i18n.tsx';
import './figures.css';

/** Milliseconds as the inspector shows them: whole below 10 s (ungrouped, as the event list's), then tenths of seconds. */
function inspectorMs({ t, format }: Pick<I18n, 't' | 'format'>, value: number | null): string {
  if (value === null) return '—';
  return value < 10_000
    ? t('inspector.ms', { ms: String(Math.round(value)) })
    : t('inspector.seconds', { seconds: format.decimal(value / 1000, 1) });
}

/** A figure by its test id (the English term's). */
export type FigureId =
  | 'time-to-headers'
  | 'time-to-first-token'
  | 'total-duration'
  | 'output-rate'
  | 'longest-silence'
  | 'keepalives'
  | 'events'
  | 'bytes-received'
  | 'cost';

/**
 * Latency figures of one attempt, and what it cost, as a definition list people and tests can read by term;
 * `only`: these figures alone (a compared column's few).
 */
export function Figures({
  figures,
  cost,
  only,
}: {
  figures: TraceFigures;
  cost?: string;
  only?: readonly FigureId[];
}) {
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
  const rows: [testId: FigureId, term: MessageKey, value: string][] = [
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
      {rows
        .filter(([testId]) => !only || only.includes(testId))
        .map(([testId, term, value]) => (
          <div key={testId}>
            <dt>{t(term)}</dt>
            <dd data-testid={`figure-${testId}`}>{value}</dd>
          </div>
        ))}
    </dl>
  );
}
