import { lazy } from 'react';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import { IconDialogButton } from '../shared/IconDialogButton.tsx';

/** The page and its chart library are fetched the first time it opens: the first screen needs only the button. */
const UsageDialog = lazy(() =>
  import('./UsageDialog.tsx').then(({ UsageDialog }) => ({ default: UsageDialog })),
);

/** Three bars. */
const barsIcon = 'M5 20V11M12 20V5M19 20v-6M3 20h18';

/** "Usage and cost", at the sidebar's foot. */
export function UsageButton() {
  const { t } = useI18n();
  return (
    <IconDialogButton
      label={t('usagePage.title')}
      title={t('usagePage.title')}
      icon={barsIcon}
      words
      // Over the whole page, not inside the sidebar (whose stacking the conversation would cover).
      overPage
      dialog={(close) => <UsageDialog onClose={close} />}
    />
  );
}
