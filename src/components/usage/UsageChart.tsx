import { useEffect, useRef, useState } from 'react';
import { adapters, type Protocol, protocols } from '../../core/index.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import type { I18n } from '../../i18n/i18n.tsx';
import type { UsageGrouping, UsageReport } from '../../state/domain/usageReport.ts';
import type { ChartFigures } from './drawChart.ts';

/** chart.js comes with the page's chart, fetched when it first opens: the first screen never needs it. */
const chartCode = () => import('./drawChart.ts');

const isProtocol = (value: string): value is Protocol => (protocols as readonly string[]).includes(value);

/** A row's name as the table and the chart show it: a day in the language's format, a protocol's label. */
export function rowName({ format }: Pick<I18n, 'format'>, grouping: UsageGrouping, key: string): string {
  if (grouping === 'day') return format.utcDay(key);
  if (grouping === 'protocol' && isProtocol(key)) return adapters[key].label;
  return key;
}

/** What the bars show; a cost nobody knows (an unpriced model) draws no bar, never a $0 one. */
export function chartFigures(i18n: I18n, report: UsageReport): ChartFigures {
  const { t, format, locale } = i18n;
  return {
    labels: report.rows.map((row) => rowName(i18n, report.grouping, row.key)),
    input: report.rows.map((row) => row.inputTokens),
    output: report.rows.map((row) => row.outputTokens),
    cost: report.rows.map((row) => (row.cost.known > 0 ? row.cost.dollars : null)),
    words: {
      input: t('usagePage.col.input'),
      output: t('usagePage.col.output'),
      cost: t('usagePage.csv.cost'),
    },
    locale,
    count: format.count,
    usd: format.usd,
  };
}

/**
 * The report as bars. A picture for those who see it: its name says what it shows, and the table after it
 * is its accessible equivalent, with the same figures.
 */
export function UsageChart({ report }: { report: UsageReport }) {
  const i18n = useI18n();
  const canvas = useRef<HTMLCanvasElement>(null);
  const [failed, setFailed] = useState(false);
  const figures = chartFigures(i18n, report);
  // Drawn again only when what it shows changes (the dialog re-renders as answers stream elsewhere).
  const shown = JSON.stringify(figures);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `shown` stands for `figures`, which is new each render
  useEffect(() => {
    let chart: { destroy(): void } | null = null;
    let gone = false;
    chartCode().then(
      ({ drawChart }) => {
        if (!gone && canvas.current) chart = drawChart(canvas.current, figures);
      },
      (error: unknown) => {
        console.warn('The usage chart could not be loaded', error);
        if (!gone) setFailed(true);
      },
    );
    return () => {
      gone = true;
      chart?.destroy();
    };
  }, [shown]);
  if (failed) return <p className="usage-page-note">{i18n.t('usagePage.chart.failed')}</p>;
  return (
    <div className="usage-page-chart">
      <canvas
        ref={canvas}
        role="img"
        aria-label={i18n.t('usagePage.chart', { grouping: report.grouping })}
        // The figures drawn, for a test to compare with the table's (a canvas keeps none it can read).
        data-figures={shown}
      />
    </div>
  );
}
