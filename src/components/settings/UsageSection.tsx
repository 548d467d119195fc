import { useId } from 'react';
import { adapters, type Protocol, protocols } from '../../core/index.ts';
import { useTeam } from '../../hooks/useStores.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import { personOf } from '../../state/stores/teamStore.ts';
import type { DayRange, UsageRow } from '../../state/team/usageApi.ts';
import { TeamUsageQuery } from '../usage/TeamUsageQuery.tsx';
import './usage.css';

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
  return (
    <fieldset className="usage">
      <legend>{t('usage.legend')}</legend>
      <p className="field-help">{t('usage.help')}</p>
      <TeamUsageQuery admin={admin} choicesClassName="row">
        {(rows, range, everyone) =>
          rows.length === 0 ? (
            <p>{t('usage.empty')}</p>
          ) : (
            <UsageTable rows={rows} range={range} everyone={everyone} />
          )
        }
      </TeamUsageQuery>
    </fieldset>
  );
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
