import { type ReactNode, useState } from 'react';
import { lastDays, type UsageScope, useUsage } from '../../hooks/useUsage.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import type { I18n } from '../../i18n/i18n.tsx';
import { type DayRange, UsageError, type UsageProblem, type UsageRow } from '../../state/team/usageApi.ts';

/** The ranges a person picks from, in days up to today (UTC); the first is where a view starts. */
const usagePeriods = [7, 30] as const;

/** Why usage could not be had, in words. */
function problemText(t: I18n['t'], error: Error): string {
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

export interface TeamUsageQueryProps {
  /** An administrator may choose everyone's figures. */
  admin: boolean;
  /** The class of the row holding the two choices. */
  choicesClassName: string;
  /** What the server's rows show as, once they came: `everyone` when they are everyone's. */
  children(rows: UsageRow[], range: DayRange, everyone: boolean): ReactNode;
}

/**
 * Team mode's usage as the server counted it: the period (and, for administrators, whose) chosen here, the
 * server asked, and while it answers or when it cannot, a status or the problem with a Retry. Settings'
 * Usage section and the usage page show the rows each their own way.
 */
export function TeamUsageQuery({ admin, choicesClassName, children }: TeamUsageQueryProps) {
  const { t } = useI18n();
  const [days, setDays] = useState<number>(usagePeriods[0]);
  const [scope, setScope] = useState<UsageScope>('own');
  const range = lastDays(days, Date.now());
  const usage = useUsage(admin ? scope : 'own', range);
  return (
    <>
      <div className={choicesClassName}>
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
      ) : (
        children(usage.data, range, admin && scope === 'everyone')
      )}
    </>
  );
}
