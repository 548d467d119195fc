import { useId, useState } from 'react';
import { adapters, type Protocol, protocols } from '../../core/index.ts';
import { useTeam } from '../../hooks/useStores.ts';
import { lastDays, type UsageScope, useUsage } from '../../hooks/useUsage.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import type { I18n } from '../../i18n/i18n.tsx';
import { personOf } from '../../state/stores/teamStore.ts';
import { type DayRange, UsageError, type UsageProblem, type UsageRow } from '../../state/team/usageApi.ts';
import './usage.css';

/** The ranges a person picks from, in days up to today (UTC); the first is where the section starts. */
export const usagePeriods = [7, 30] as const;

const isProtocol = (value: string): value is Protocol => (protocols as readonly string[]).includes(value);

/**
 * Team mode: the tokens the server counted for the signed-in person, per day, model and protocol, and for
 * administrators everyone's too. Not shown in single-person mode (nobody is signed in: nothing is counted).
 */
export function UsageSection() {
  const person = useTeam(personOf);
  return person ? <Usage admin={person.admin} /> : null;
}

function Usage({ admin }: { admin: boolean }) {
  const { t } = useI18n();
  const [days, setDays] = useState<number>(usagePeriods[0]);
  const [scope, setScope] = useState<UsageScope>('own');
  const range = lastDays(days, Date.now());
  const usage = useUsage(admin ? scope : 'own', range);

  return (
    <fieldset className="usage">
      <legend>{t('usage.legend')}</legend>
      <p className="field-help">{t('usage.help')}</p>
      <div className="row">
        <label className="field">
          <span>{t('usage.period')}</span>
          <select className="select" value={days} onChange={(e) => setDays(Number(e.target.value))}>
            {usagePeriods.map((n) => (
              <option key={n} value={n}>
                {t('usage.lastDays', { days: n })}
              </option>
            ))}
          </select>
        </label>
        {admin ? (
          <label className="field">
            <span>{t('usage.whose')}</span>
            <select
              className="select"
              value={scope}
              onChange={(e) => setScope(e.target.value === 'everyone' ? 'everyone' : 'own')}
            >
              <option value="own">{t('usage.whose.own')}</option>
              <option value="everyone">{t('usage.whose.everyone')}</option>
            </select>
          </label>
        ) : null}
      </div>
      {usage.isPending ? (
        <p role="status">{t('usage.loading')}</p>
      ) : usage.isError ? (
        <div className="usage-problem">
          <p role="alert" className="field-error">
            {problemText(t, usage.error)}
          </p>
          <button type="button" className="btn btn-small" onClick={() => void usage.refetch()}>
            {t('action.retry')}
          </button>
        </div>
      ) : usage.data.length === 0 ? (
        <p>{t('usage.empty')}</p>
      ) : (
        <UsageTable rows={usage.data} range={range} everyone={admin && scope === 'everyone'} />
      )}
    </fieldset>
  );
}

/** Why usage could not be had, in words. */
export function problemText(t: I18n['t'], error: Error): string {
  const problem: UsageProblem =
    error instanceof UsageError ? error.problem : { kind: 'unreachable', reason: error.message };
  switch (problem.kind) {
    case 'signed-out':
      return t('usage.signedOut');
    case 'malformed':
      return t('usage.malformed');
    default:
      return t('usage.failed', { reason: problem.reason });
  }
}

const figures = ['inputTokens', 'outputTokens', 'cachedTokens', 'attempts', 'interrupted'] as const;

/**
 * Everyone's rows per person, people in alphabetical order, each one's rows in the server's order (by day):
 * a person's name heads their rows, once, instead of taking a column of its own in a table already wider
 * than the dialog.
 */
function byPerson(rows: readonly UsageRow[], locale: string): [string, UsageRow[]][] {
  const groups = new Map<string, UsageRow[]>();
  for (const row of rows) {
    const person = row.person ?? '';
    const group = groups.get(person);
    if (group) group.push(row);
    else groups.set(person, [row]);
  }
  return [...groups].sort(([a], [b]) => a.localeCompare(b, locale));
}

function UsageTable({ rows, range, everyone }: { rows: UsageRow[]; range: DayRange; everyone: boolean }) {
  const { t, locale, format } = useI18n();
  const captionId = useId();
  const total = (figure: (typeof figures)[number]) => rows.reduce((sum, row) => sum + row[figure], 0);
  const headings = {
    inputTokens: t('usage.input'),
    outputTokens: t('usage.output'),
    cachedTokens: t('usage.cached'),
    attempts: t('usage.attempts'),
    interrupted: t('usage.interrupted'),
  };
  const columns = 3 + figures.length;
  const groups: [string | null, UsageRow[]][] = everyone ? byPerson(rows, locale) : [[null, rows]];
  return (
    // A table wider than a phone scrolls inside this frame, which takes focus so keys can scroll it.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (WCAG 2.1.1).
    <section className="usage-table-wrap" aria-labelledby={captionId} tabIndex={0}>
      <table className="usage-table">
        <caption id={captionId}>
          {t('usage.caption', {
            whose: everyone ? 'everyone' : 'own',
            days: format.utcDays(range.from, range.to),
          })}
        </caption>
        <thead>
          <tr>
            <th scope="col">{t('usage.day')}</th>
            <th scope="col">{t('model.label')}</th>
            <th scope="col">{t('protocol.label')}</th>
            {figures.map((figure) => (
              <th key={figure} scope="col" className="usage-figure">
                {headings[figure]}
              </th>
            ))}
          </tr>
        </thead>
        {groups.map(([person, rows]) => (
          <tbody key={person ?? ''}>
            {person === null ? null : (
              <tr>
                <th scope="rowgroup" colSpan={columns} className="usage-person">
                  {/* In view while the figures scroll sideways under it. */}
                  <span>{person}</span>
                </th>
              </tr>
            )}
            {rows.map((row) => (
              <tr key={`${row.day} ${row.model} ${row.protocol}`}>
                <td>{format.utcDay(row.day)}</td>
                <td>{row.model}</td>
                <td>{isProtocol(row.protocol) ? adapters[row.protocol].label : row.protocol}</td>
                {figures.map((figure) => (
                  <td key={figure} className="usage-figure">
                    {format.count(row[figure])}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        ))}
        <tfoot>
          <tr>
            <th scope="row" colSpan={3}>
              {t('usage.total')}
            </th>
            {figures.map((figure) => (
              <td key={figure} className="usage-figure">
                {format.count(total(figure))}
              </td>
            ))}
          </tr>
        </tfoot>
      </table>
    </section>
  );
}
