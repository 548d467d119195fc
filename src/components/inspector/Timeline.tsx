import { useI18n } from '../../i18n/I18nProvider.tsx';
import type { TraceItem } from '../../state/domain/types.ts';

const buckets = 240;
const width = 100 / buckets;

/** One path for all non-empty buckets: a single element however many items there are. */
function bars(counts: Uint32Array, y: number, height: number): string {
  let d = '';
  counts.forEach((count, i) => {
    if (count > 0) d += `M${(i * width).toFixed(3)} ${y}h${width.toFixed(3)}v${height}h-${width.toFixed(3)}z`;
  });
  return d;
}
const gapMs = 1000;

/**
 * The attempt at a glance: events and keepalives as ticks on one strip, model silences (no event for
 * over a second, keepalives or not) as
 * shaded bands, so a stall is seen rather than read. Ticks are bucketed, so a huge trace draws fast.
 */
export function Timeline({ items, endedAt }: { items: readonly TraceItem[]; endedAt: number | null }) {
  const span = Math.max(endedAt ?? 0, items[items.length - 1]?.t ?? 0, 1);
  const events = new Uint32Array(buckets);
  const comments = new Uint32Array(buckets);
  const gaps: [number, number][] = [];
  let previous = 0;
  for (const item of items) {
    const bucket = Math.min(buckets - 1, Math.floor((item.t / span) * buckets));
    if (item.kind === 'comment') {
      comments[bucket]! += 1;
      continue;
    }
    events[bucket]! += 1;
    if (item.t - previous > gapMs) gaps.push([previous, item.t]);
    previous = item.t;
  }
  if (endedAt !== null && endedAt - previous > gapMs) gaps.push([previous, endedAt]);
  const x = (at: number) => (at / span) * 100;
  const { t } = useI18n();
  const spanMs = String(Math.round(span));
  return (
    <figure className="timeline">
      <svg
        viewBox="0 0 100 24"
        preserveAspectRatio="none"
        role="img"
        aria-label={t('inspector.timeline', { items: items.length, span: spanMs })}
      >
        {gaps.map(([from, to]) => (
          <rect
            key={from}
            className="timeline-gap"
            x={x(from)}
            y={0}
            width={Math.max(0.3, x(to) - x(from))}
            height={24}
          />
        ))}
        <path className="timeline-event" d={bars(events, 4, 10)} />
        <path className="timeline-keepalive" d={bars(comments, 15, 7)} />
      </svg>
      <figcaption>
        <span className="legend legend-event">{t('inspector.legend.events')}</span>
        <span className="legend legend-keepalive">{t('inspector.legend.keepalives')}</span>
        <span className="legend legend-gap">{t('inspector.legend.silence')}</span>
        <span className="timeline-span">{t('inspector.span', { span: spanMs })}</span>
      </figcaption>
    </figure>
  );
}
