import { useEffect, useId, useRef, useState } from 'react';
import { useServices } from '../../hooks/appContext.tsx';
import { useSettings } from '../../hooks/useStores.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import type { Conversation } from '../../state/domain/types.ts';
import { systemPromptOf } from '../../state/stores/conversationStore.ts';
import { ModalDialog } from '../shared/ModalDialog.tsx';
import { systemPromptNote } from './systemPromptNote.ts';
import './systemPrompt.css';

/** The open chat's own system prompt, seen and changed; Save keeps it, Cancel and Escape leave it. */
export function SystemPromptDialog({
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
  return (
    <ModalDialog labelledBy={titleId} className="system-prompt-dialog" onClose={onClose}>
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
    </ModalDialog>
  );
}
