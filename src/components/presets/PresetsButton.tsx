import { lazy } from 'react';
import { useConversations } from '../../hooks/useStores.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import { IconDialogButton } from '../shared/IconDialogButton.tsx';

/** The dialog is fetched the first time it opens: the first screen needs only the button. */
const PresetsDialog = lazy(() =>
  import('./PresetsDialog.tsx').then(({ PresetsDialog }) => ({ default: PresetsDialog })),
);

/** A bookmark: a setup kept to start from again. */
const bookmarkIcon = 'M7 4h10a1 1 0 0 1 1 1v15l-6-4-6 4V5a1 1 0 0 1 1-1Z';

/**
 * "Presets", beside "New chat" (the toolbar has no room left on a phone): save the open chat's setup under
 * a name, start a new chat from one.
 */
export function PresetsButton({ onStarted }: { onStarted?(): void }) {
  const conversation = useConversations((s) => (s.activeId ? (s.conversations[s.activeId] ?? null) : null));
  const { t } = useI18n();
  return (
    <IconDialogButton
      label={t('presets.title')}
      title={t('presets.button.title')}
      icon={bookmarkIcon}
      // Over the whole page, not inside the sidebar (whose stacking the conversation would cover).
      overPage
      dialog={(close) => <PresetsDialog conversation={conversation} onClose={close} onStarted={onStarted} />}
    />
  );
}
