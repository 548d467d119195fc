import type { TraceFigures } from '../../core/index.ts';

const ms = (value: number | null) =>
  value === null ? '—' : value < 10_000 ? `${Math.round(value)} ms` : `${(value / 1000).toFixed(1)} s`;

/** Latency figures of one attempt, as a definition list people and tests can read by term. */
export function Figures({ figures }: { figures: TraceFigures }) {
  const rate =
    figures.tokensPerSecond === null
      ? '—'
      : `${figures.tokensPerSecond.toFixed(1)} tok/s${figures.tokensPerSecondSource === 'events' ? ' (counted deltas)' : ''}`;
  const rows: [string, string][] = [
    ['Time to headers', ms(figures.timeToHeadersMs)],
    ['Time to first token', ms(figures.timeToFirstTokenMs)],
    ['Total duration', ms(figures.durationMs)],
    ['Output rate', rate],
    [
      'Longest silence',
      `${ms(figures.longestSilenceMs)}${figures.longestSilenceMs > 0 ? ` at +${ms(figures.longestSilenceStartMs)}` : ''}`,
    ],
    ['Keepalives', figures.keepalives.toLocaleString('en-US')],
    ['Events', figures.events.toLocaleString('en-US')],
    ['Bytes received', figures.bytes.toLocaleString('en-US')],
  ];
  return (
    <dl className="figures" aria-label="Figures">
      {rows.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd data-testid={`figure-${term.toLowerCase().replaceAll(' ', '-')}`}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
