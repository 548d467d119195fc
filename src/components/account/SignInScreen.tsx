import { useTeam } from '../../hooks/useStores.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import { signInPath } from './signInPath.ts';
import './account.css';

/**
 * Team mode, nobody signed in: the whole page is the way in. With OpenID Connect, a link to the provider
 * that comes back to this address; behind an authenticating proxy, whoever reaches the page is signed in,
 * so getting here means the proxy did not say who the person is.
 */
export function SignInScreen() {
  const { t } = useI18n();
  const auth = useTeam((s) => (s.account.mode === 'team' ? s.account.auth : null));
  return (
    <main className="sign-in">
      <div className="sign-in-card">
        <h1>
          <img src="/favicon.svg" alt="" width={28} height={28} /> {t('signIn.title')}
        </h1>
        {auth === 'header' ? (
          <>
            <p>{t('signIn.header')}</p>
            <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
              {t('action.reload')}
            </button>
          </>
        ) : (
          <>
            <p>{t('signIn.oidc')}</p>
            <a className="btn btn-primary" href={signInPath(window.location)}>
              {t('signIn.button')}
            </a>
          </>
        )}
      </div>
    </main>
  );
}
