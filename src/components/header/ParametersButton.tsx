import { lazy } from 'react';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import type { Conversation } from '../../state/domain/types.ts';
import { IconDialogButton } from '../shared/IconDialogButton.tsx';

/** The dialog is fetched the first time it opens: the first screen needs only the button. */
const ParametersDialog = lazy(() =>
  import('./ParametersDialog.tsx').then(({ ParametersDialog }) => ({ default: ParametersDialog })),
);

/** Three upright sliders at different heights (Settings has two lying ones). */
const slidersIcon = 'M6 4v16M12 4v16M18 4v16M4 15h4M10 8h4M16 13h4';

/**
 * The toolbar's "Parameters": the open chat's temperature, top P, output limit, stop sequences, seed and
 * penalties, and whether its prompt is cached, seen and changed in a dialog. Before a chat's first message
 * they are what it starts with.
 */
export function ParametersButton({ conversation }: { conversation: Conversation | null }) {
  const { t } = useI18n();
  return (
    <IconDialogButton
      label={t('params.title')}
      title={t('params.button.title')}
      icon={slidersIcon}
      dialog={(close) => <ParametersDialog conversation={conversation} onClose={close} />}
    />
  );
}
