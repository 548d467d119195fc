import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef, useState } from 'react';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import type { TraceItem } from '../../state/domain/types.ts';

function pretty(data: string): string {
  try {
    return JSON.stringify(JSON.parse(data), null, 2);
  } catch {
    return data;
  }
}

function label(item: TraceItem): string {
  return item.kind === 'comment' ? `: ${item.data}` : item.event;
}

/** Every recorded event and comment, filterable; virtualized, so thousands of rows stay fast. */
export function EventList({ items }: { items: readonly TraceItem[] }) {
  const [query, setQuery] = useState('');
  const { t } = useI18n();
  const [open, setOpen] = useState<Set<number>>(() => new Set());
  const rows = useMemo(() => {
    const indexes: number[] = [];
    const needle = query.trim().toLowerCase();
    items.forEach((item, i) => {
      if (!needle || label(item).toLowerCase().includes(needle) || item.data.toLowerCase().includes(needle))
        indexes.push(i);
    });
    return indexes;
  }, [items, query]);
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 30,
    overscan: 10,
    initialRect: { width: 400, height: 480 },
  });

  const toggle = (index: number) =>
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(index)) next.add(index);
      return next;
    });

  return (
    <section className="events" aria-label={t('inspector.events')}>
      <label className="field">
        <span>{t('inspector.events.search')}</span>
        <input
          type="search"
          value={query}
          placeholder={t('inspector.events.placeholder')}
          onChange={(e) => setQuery(e.target.value)}
        />
      </label>
      <p className="events-count">
        {t('inspector.events.count', { shown: rows.length, total: items.length })}
      </p>
      <div className="events-scroller" ref={scroller}>
        <ul style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((virtual) => {
            const index = rows[virtual.index]!;
            const item = items[index]!;
            const expanded = open.has(index);
            return (
              <li
                key={virtual.key}
                data-index={virtual.index}
                ref={virtualizer.measureElement}
                className={`event-row event-${item.kind}`}
                style={{ transform: `translateY(${virtual.start}px)` }}
              >
                <button type="button" aria-expanded={expanded} onClick={() => toggle(index)}>
                  <span className="event-time">{t('inspector.events.at', { ms: String(item.t) })}</span>
                  <span className="event-name">{label(item)}</span>
                  {item.kind === 'event' && !expanded ? (
                    <span className="event-preview">{item.data.slice(0, 120)}</span>
                  ) : null}
                </button>
                {expanded && item.kind === 'event' ? (
                  <pre className="event-data">{pretty(item.data)}</pre>
                ) : null}
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}
