import { useId, useMemo, useState } from 'react';
import type { CostSum } from '../../core/index.ts';
import { usePrices } from '../../hooks/usePrices.ts';
import { useConversations, useStorageStatus, useTeam } from '../../hooks/useStores.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import type { I18n } from '../../i18n/i18n.tsx';
import { valuesOf } from '../../state/domain/idRecord.ts';
import {
  attemptEntries,
  serverEntries,
  type UsageEntry,
  type UsageFigures,
  type UsageGrouping,
  type UsageReport,
  usageGroupings,
  usageReport,
} from '../../state/domain/usageReport.ts';
import { usageCsv } from '../../state/formats/usageCsv.ts';
import { personOf } from '../../state/stores/teamStore.ts';
import type { UsageRow } from '../../state/team/usageApi.ts';
import { costFigure } from '../cost/costWords.ts';
import { downloadText } from '../shared/download.ts';
import { ModalDialog } from '../shared/ModalDialog.tsx';
import { withStillReading } from '../sidebar/searchSummary.ts';
import { TeamUsageQuery } from './TeamUsageQuery.tsx';
import { rowName, UsageChart } from './UsageChart.tsx';
import './usagePage.css';

/** A moment's calendar day where the person is, as `YYYY-MM-DD`. */
function localDay(epochMs: number): string {
  const date = new Date(epochMs);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}`;
}

/**
 * "Usage and cost": tokens and cost per day, model or protocol, as bars and as a table, exportable as CSV.
 * Single-person mode: every attempt this browser keeps. Team mode: what the server counted, the person's
 * own, and for administrators everyone's.
 */
export function UsageDialog({ onClose }: { onClose(): void }) {
  const { t } = useI18n();
  const titleId = useId();
  const person = useTeam(personOf);
  const [grouping, setGrouping] = useState<UsageGrouping>('day');
  return (
    <ModalDialog labelledBy={titleId} className="usage-page" onClose={onClose} closeOnBackdrop>
      <h2 id={titleId}>{t('usagePage.title')}</h2>
      <p className="usage-page-note">{t(person ? 'usagePage.help.team' : 'usagePage.help.local')}</p>
      <fieldset className="usage-page-grouping">
        <legend>{t('usagePage.groupBy')}</legend>
        {usageGroupings.map((g) => (
          <label key={g}>
            <input
              type="radio"
              name={`${titleId}-grouping`}
              value={g}
              checked={grouping === g}
              onChange={() => setGrouping(g)}
            />
            {t('usagePage.group', { grouping: g })}
          </label>
        ))}
      </fieldset>
      {person ? <TeamUsage grouping={grouping} admin={person.admin} /> : <LocalUsage grouping={grouping} />}
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={onClose}>
          {t('action.close')}
        </button>
      </div>
    </ModalDialog>
  );
}

function LocalUsage({ grouping }: { grouping: UsageGrouping }) {
  const i18n = useI18n();
  const prices = usePrices();
  // A long history is read after the first screen: until then, the figures grow as it comes in.
  const unread = useStorageStatus((s) => s.unread);
  const conversations = useConversations((s) => s.conversations);
  const entries = useMemo(
    () => attemptEntries(valuesOf(conversations), prices, localDay),
    [conversations, prices],
  );
  return (
    <>
      <p role="status" className="usage-page-note">
        {withStillReading(i18n, '', unread).trim()}
      </p>
      <Report entries={entries} grouping={grouping} everyone={false} />
    </>
  );
}

/** Team mode: the server's figures over the period chosen; an administrator may choose everyone's. */
function TeamUsage({ grouping, admin }: { grouping: UsageGrouping; admin: boolean }) {
  return (
    <TeamUsageQuery admin={admin} choicesClassName="usage-page-choices">
      {(rows, _range, everyone) => <ServerReport rows={rows} grouping={grouping} everyone={everyone} />}
    </TeamUsageQuery>
  );
}

/** The server's daily sums, priced with the table. */
function ServerReport({
  rows,
  grouping,
  everyone,
}: {
  rows: UsageRow[];
  grouping: UsageGrouping;
  everyone: boolean;
}) {
  const prices = usePrices();
  const entries = useMemo(() => serverEntries(rows, prices), [rows, prices]);
  return <Report entries={entries} grouping={grouping} everyone={everyone} />;
}

function Report({
  entries,
  grouping,
  everyone,
}: {
  entries: readonly UsageEntry[];
  grouping: UsageGrouping;
  everyone: boolean;
}) {
  const i18n = useI18n();
  const report = useMemo(() => usageReport(entries, grouping), [entries, grouping]);
  if (report.rows.length === 0) return <p>{i18n.t('usagePage.empty')}</p>;
  return (
    <>
      <UsageChart report={report} />
      <UsageTable report={report} everyone={everyone} />
      <button
        type="button"
        className="btn usage-page-export"
        onClick={() =>
          downloadText(
            `hopbase-usage-per-${grouping}-${localDay(Date.now())}.csv`,
            usageCsv(report, csvWords(i18n, grouping)),
            'text/csv;charset=utf-8',
          )
        }
      >
        {i18n.t('usagePage.export')}
      </button>
    </>
  );
}

function csvWords(i18n: I18n, grouping: UsageGrouping) {
  const { t } = i18n;
  return {
    key: t('usagePage.col.key', { grouping }),
    inputTokens: t('usagePage.col.input'),
    cachedTokens: t('usagePage.col.cached'),
    outputTokens: t('usagePage.col.output'),
    reasoningTokens: t('usagePage.col.reasoning'),
    cost: t('usagePage.csv.cost'),
    note: t('usagePage.csv.note'),
    total: t('usage.total'),
    unknown: t('cost.unknown'),
    partial: t('usagePage.csv.partial'),
    // Days stay `YYYY-MM-DD` (a spreadsheet reads them as dates); a protocol by its label.
    name: (key: string) => (grouping === 'day' ? key : rowName(i18n, grouping, key)),
  };
}

const figureColumns = ['inputTokens', 'cachedTokens', 'outputTokens', 'reasoningTokens'] as const;
const figureWords = {
  inputTokens: 'usagePage.col.input',
  cachedTokens: 'usagePage.col.cached',
  outputTokens: 'usagePage.col.output',
  reasoningTokens: 'usagePage.col.reasoning',
} as const;

/** A sum's dollars as the usage line writes them; "price unknown" when none is known, never $0. */
function costCell(i18n: I18n, cost: CostSum): string {
  return costFigure(i18n, cost, false) ?? '—';
}

function UsageTable({ report, everyone }: { report: UsageReport; everyone: boolean }) {
  const i18n = useI18n();
  const { t, format } = i18n;
  const captionId = useId();
  const cells = (figures: UsageFigures) => (
    <>
      {figureColumns.map((column) => (
        <td key={column} className="usage-figure">
          {format.count(figures[column])}
        </td>
      ))}
      <td className="usage-figure">{costCell(i18n, figures.cost)}</td>
    </>
  );
  return (
    // A table wider than a phone scrolls inside this frame, which takes focus so keys can scroll it.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (WCAG 2.1.1).
    <section className="usage-table-wrap" aria-labelledby={captionId} tabIndex={0}>
      <table className="usage-table">
        <caption id={captionId}>
          {t('usagePage.caption', { grouping: report.grouping, whose: everyone ? 'everyone' : 'own' })}
        </caption>
        <thead>
          <tr>
            <th scope="col">{t('usagePage.col.key', { grouping: report.grouping })}</th>
            {figureColumns.map((column) => (
              <th key={column} scope="col" className="usage-figure">
                {t(figureWords[column])}
              </th>
            ))}
            <th scope="col" className="usage-figure">
              {t('usagePage.col.cost')}
            </th>
          </tr>
        </thead>
        <tbody>
          {report.rows.map((row) => (
            <tr key={row.key}>
              <th scope="row">{rowName(i18n, report.grouping, row.key)}</th>
              {cells(row)}
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">{t('usage.total')}</th>
            {cells(report.total)}
          </tr>
        </tfoot>
      </table>
    </section>
  );
}
