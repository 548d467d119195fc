import { useServices } from '../../hooks/appContext.tsx';
import { useConversations, useTeam } from '../../hooks/useStores.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import { signInPath } from '../account/signInPath.ts';
import './banners.css';

/**
 * Team mode's news above the conversation: the session ended (nothing is lost: say so, and the way back
 * in), the history this browser kept before signing in (offered for the account), and a conversation the
 * server would not keep.
 */
export function TeamBanners() {
  const { team } = useServices();
  const { t } = useI18n();
  const signedOut = useTeam((s) => s.connection === 'signed-out');
  const history = useTeam((s) => s.localHistory);
  const refused = useTeam((s) => s.refused);
  const titles = useConversations((s) => s.conversations);
  if (!team) return null;
  return (
    <>
      {signedOut ? (
        <div role="alert" className="banner banner-warn">
          <div className="banner-text">{t('team.sessionEnded')}</div>
          <div className="banner-actions">
            <a className="btn btn-small" href={signInPath(window.location)}>
              {t('team.signInAgain')}
            </a>
          </div>
        </div>
      ) : null}
      {history.state === 'offered' ? (
        <section aria-label={t('team.localHistory.add')} className="banner">
          <div className="banner-text">{t('team.localHistory.offer', { n: history.count })}</div>
          <div className="banner-actions">
            <button
              type="button"
              className="btn btn-small btn-primary"
              onClick={() => void team.localHistory.add()}
            >
              {t('team.localHistory.add')}
            </button>
            <button type="button" className="btn btn-small" onClick={() => team.localHistory.dismiss()}>
              {t('team.localHistory.decline')}
            </button>
          </div>
        </section>
      ) : null}
      {history.state === 'adding' || history.state === 'added' ? (
        <div role="status" className="banner">
          <div className="banner-text">
            {t(history.state === 'adding' ? 'team.localHistory.adding' : 'team.localHistory.added', {
              n: history.count,
            })}
          </div>
        </div>
      ) : null}
      {refused.map(({ id, reason }) => (
        <div key={id} role="alert" className="banner banner-danger">
          <div className="banner-text">{t('team.refused', { title: titles[id]?.title ?? id, reason })}</div>
        </div>
      ))}
    </>
  );
}
