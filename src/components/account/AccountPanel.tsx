import { useState } from 'react';
import { useServices } from '../../hooks/appContext.tsx';
import { useTeam } from '../../hooks/useStores.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import { personOf } from '../../state/stores/teamStore.ts';
import type { SignOutResult } from '../../state/team/teamAccount.ts';
import './account.css';

/**
 * Team mode, at the foot of the sidebar: who is signed in, whether what is here is on the server, and
 * signing out (which first asks when changes made here would stay behind).
 */
export function AccountPanel() {
  const { team } = useServices();
  const { t } = useI18n();
  const person = useTeam(personOf);
  const connection = useTeam((s) => s.connection);
  const pending = useTeam((s) => s.pending);
  const [outcome, setOutcome] = useState<Exclude<SignOutResult, { ok: true }> | 'signing-out' | null>(null);
  if (!team || !person) return null;

  const signOut = async (anyway: boolean) => {
    setOutcome('signing-out');
    const result = await team.signOut(anyway);
    if (result.ok) window.location.assign('/');
    else setOutcome(result);
  };

  return (
    <section className="account-panel" aria-label={t('account.label')}>
      <div className="account-person">
        <span className="account-name">{person.name ?? person.email}</span>
        {person.name ? <span className="account-email">{person.email}</span> : null}
      </div>
      <p role="status" className="account-sync" data-connection={connection}>
        {t('account.sync', { state: connection })}
        {pending > 0 ? <> · {t('account.pending', { n: pending })}</> : null}
      </p>
      {outcome !== null && outcome !== 'signing-out' ? (
        <p role="alert" className="account-warning">
          {outcome.kind === 'pending'
            ? t('account.signOut.pending', { n: outcome.pending })
            : t('account.signOut.failed', { reason: outcome.reason })}
        </p>
      ) : null}
      <div className="account-actions">
        {outcome !== null && outcome !== 'signing-out' && outcome.kind === 'pending' ? (
          <>
            <button type="button" className="btn btn-small" onClick={() => void signOut(true)}>
              {t('account.signOut.anyway')}
            </button>
            <button type="button" className="btn btn-small" onClick={() => setOutcome(null)}>
              {t('action.cancel')}
            </button>
          </>
        ) : (
          <button
            type="button"
            className="btn btn-small"
            disabled={outcome === 'signing-out'}
            onClick={() => void signOut(false)}
          >
            {t('account.signOut')}
          </button>
        )}
      </div>
    </section>
  );
}
