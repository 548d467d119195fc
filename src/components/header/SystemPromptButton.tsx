import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { useServices } from '../../hooks/appContext.tsx';
import { useSettings } from '../../hooks/useStores.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import { systemPromptOf } from '../../state/conversationStore.ts';
import type { Conversation } from '../../state/types.ts';
import { LineIcon } from '../shared/LineIcon.tsx';
import { trapTab } from '../shared/trapTab.ts';
import { systemPromptNote } from './systemPromptNote.ts';
import '../settings/settings.css';
import './systemPrompt.css';

/** A speech bubble with lines of text: what the model is told before the conversation. */
const promptIcon =
  'M5 4h14a1 1 0 0 1 1 1v11a1 1 0 0 1-1 1H10l-4 3v-3H5a1 1 0 0 1-1-1V5a1 1 0 0 1 1-1Zm3 5h8m-8 4h5';

/**
 * The toolbar's "System prompt": the open chat's own prompt, seen and changed in a small dialog. Before a
 * chat's first message it is what the chat will start with (the default from Settings until changed).
 */
export function SystemPromptButton({ conversation }: { conversation: Conversation | null }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const { t } = useI18n();
  const close = () => {
    setOpen(false);
    // Back where the person was.
    button.current?.focus();
  };
  return (
    <>
      <button
        ref={button}
        type="button"
        className="btn toolbar-icon"
        aria-haspopup="dialog"
        // An icon: the toolbar has no room for more on one row.
        aria-label={t('systemPrompt.title')}
        title={t('systemPrompt.field')}
        onClick={() => setOpen(true)}
      >
        <LineIcon d={promptIcon} />
      </button>
      {open ? <SystemPromptDialog conversation={conversation} onClose={close} /> : null}
    </>
  );
}

function SystemPromptDialog({
  conversation,
  onClose,
}: {
  conversation: Conversation | null;
  onClose(): void;
}) {
  const { stores } = useServices();
  const defaultPrompt = useSettings((s) => s.settings.systemPrompt);
  const [draft, setDraft] = useState(() => systemPromptOf(conversation ?? undefined, defaultPrompt));
  const titleId = useId();
  const noteId = useId();
  const box = useRef<HTMLTextAreaElement>(null);
  const i18n = useI18n();
  const { t } = i18n;
  useEffect(() => box.current?.focus(), []);

  const save = () => {
    const conversations = stores.conversations.getState();
    if (conversation) conversations.setSystemPrompt(conversation.id, draft);
    // No chat yet: the prompt is this new chat's, unless it is the default it would start with anyway.
    else if (draft !== defaultPrompt) conversations.setSystemPrompt(conversations.newConversation(), draft);
    onClose();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
    } else trapTab(event);
  };

  return (
    <div className="overlay">
      <div
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        className="dialog system-prompt-dialog"
        onKeyDown={onKeyDown}
      >
        <h2 id={titleId}>{t('systemPrompt.title')}</h2>
        <label className="field">
          <span>{t('systemPrompt.field')}</span>
          <textarea
            ref={box}
            rows={6}
            value={draft}
            aria-describedby={noteId}
            onChange={(e) => setDraft(e.target.value)}
          />
        </label>
        <p id={noteId} className="field-help">
          {systemPromptNote(i18n, draft, defaultPrompt, (conversation?.messages.length ?? 0) > 0)}
        </p>
        <div className="system-prompt-actions">
          <button
            type="button"
            className="btn"
            disabled={draft === defaultPrompt}
            onClick={() => setDraft(defaultPrompt)}
          >
            {t('systemPrompt.useDefault')}
          </button>
          <span className="system-prompt-spacer" />
          <button type="button" className="btn" onClick={onClose}>
            {t('action.cancel')}
          </button>
          <button type="button" className="btn btn-primary" onClick={save}>
            {t('action.save')}
          </button>
        </div>
      </div>
    </div>
  );
}
