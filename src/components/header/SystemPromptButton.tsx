import { lazy } from 'react';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import type { Conversation } from '../../state/domain/types.ts';
import { IconDialogButton } from '../shared/IconDialogButton.tsx';

/** The dialog is fetched the first time it opens: the first screen needs only the button. */
const SystemPromptDialog = lazy(() =>
  import('./SystemPromptDialog.tsx').then(({ SystemPromptDialog }) => ({ default: SystemPromptDialog })),
);

/** A speech bubble with lines of text: what the model is told before the conversation. */
const promptIcon =
  'M5 4h14a1 1 0 0 1 1 1v11a1 1 0 0 1-1 1H10l-4 3v-3H5a1 1 0 0 1-1-1V5a1 1 0 0 1 1-1Zm3 5h8m-8 4h5';

/**
 * The toolbar's "System prompt": the open chat's own prompt, seen and changed in a small dialog. Before a
 * chat's first message it is what the chat will start with (the default from Settings until changed).
 */
export function SystemPromptButton({ conversation }: { conversation: Conversation | null }) {
  const { t } = useI18n();
  return (
    <IconDialogButton
      label={t('systemPrompt.title')}
      title={t('systemPrompt.field')}
      icon={promptIcon}
      dialog={(close) => <SystemPromptDialog conversation={conversation} onClose={close} />}
    />
  );
}
