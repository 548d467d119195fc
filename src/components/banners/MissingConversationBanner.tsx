import { useMissingConversation } from '../../hooks/useMissingConversation.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import './banners.css';

/** The address names a conversation that is not here: say so above the new chat's empty screen. */
export function MissingConversationBanner() {
  const missing = useMissingConversation();
  const { t } = useI18n();
  if (missing === null) return null;
  return (
    <div role="status" className="banner banner-warn">
      <div className="banner-text">{t('address.missing')}</div>
    </div>
  );
}
