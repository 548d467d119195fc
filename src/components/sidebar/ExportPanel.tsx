import { useState } from 'react';
import { useServices } from '../../hooks/appContext.tsx';
import { exportWords } from '../../i18n/explain.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import { loadParts } from '../../state/domain/partLoads.ts';
import { recordingKeptApart } from '../../state/domain/recordings.ts';
import type { Conversation } from '../../state/domain/types.ts';
import { attemptsOf } from '../../state/storage/storedConversation.ts';
import { downloadText } from '../shared/download.ts';

/** The export writer, fetched on the first click: nobody needs it to see the first screen. */
const exporter = () => import('../../state/formats/conversationExport.ts');
type ExportWriter = Awaited<ReturnType<typeof exporter>>;

/** The attempts whose recordings are in the database only (after a reload, or from another tab). */
function recordingsToRead(conversation: Conversation): string[] {
  return attemptsOf(conversation)
    .filter(recordingKeptApart)
    .map((a) => a.id);
}

/** The attempts whose request bodies are in the database only (a reload reads none of them). */
function bodiesToRead(conversation: Conversation): string[] {
  return attemptsOf(conversation)
    .filter((a) => a.request.bodyMissing === 'missing')
    .map((a) => a.id);
}

export interface ExportPanelProps {
  id: string;
  /** The conversation's id and title. */
  conversationId: string;
  title: string;
  /** Escape: close, and put focus back on the button that opened it. */
  onClose(): void;
}

/**
 * A conversation's export choices, under its row: Markdown to read, JSON to keep (never a credential). The
 * JSON holds every recording and request body: those kept in the database are read first.
 */
export function ExportPanel({ id, conversationId, title, onClose }: ExportPanelProps) {
  const { stores } = useServices();
  const i18n = useI18n();
  const { t } = i18n;
  const [savingJson, setSavingJson] = useState(false);
  const [note, setNote] = useState('');
  // Read at click time: the row does not re-render while an answer streams.
  const conversationNow = () => stores.conversations.getState().conversations[conversationId];

  const writer = async () => {
    try {
      return await exporter();
    } catch {
      setNote(t('export.unavailable'));
      return null;
    }
  };

  const write = (code: ExportWriter, conversation: Conversation, format: 'md' | 'json') => {
    const now = Date.now();
    const { apiKey } = stores.settings.getState().settings;
    downloadText(
      code.conversationFileName(conversation, format, now),
      format === 'md'
        ? code.exportConversationMarkdown(conversation, apiKey, now, exportWords(i18n))
        : code.exportConversationJson(conversation, apiKey, now),
      format === 'md' ? 'text/markdown;charset=utf-8' : 'application/json',
    );
  };

  const saveMarkdown = async () => {
    setNote('');
    const code = await writer();
    const conversation = conversationNow();
    if (code && conversation) write(code, conversation, 'md');
  };

  const saveJson = async () => {
    const asked = conversationNow();
    if (savingJson || !asked) return;
    setSavingJson(true);
    const toRead = recordingsToRead(asked);
    setNote(toRead.length ? t('export.reading', { n: toRead.length }) : '');
    const [code, problems] = await Promise.all([
      writer(),
      loadParts(stores.recordings, toRead),
      loadParts(stores.bodies, bodiesToRead(asked)),
    ]);
    setSavingJson(false);
    // Read again: the recordings and bodies are in it now.
    const conversation = conversationNow();
    if (!code || !conversation) return;
    write(code, conversation, 'json');
    const unread = Object.keys(problems).length;
    setNote(unread ? t('export.recordingsUnread', { n: unread }) : '');
  };

  return (
    // data-snapshot: a reload does not bring it back, so its screen is not one to paint first (src/app/firstScreen).
    // biome-ignore lint/a11y/noStaticElementInteractions: Escape from either button closes the panel
    <div
      id={id}
      className="export-panel"
      data-snapshot="none"
      onKeyDown={(e) => e.key === 'Escape' && onClose()}
    >
      <span className="export-label">{t('export.as')}</span>
      <button
        type="button"
        className="btn btn-small"
        aria-label={t('export.markdown.label', { title })}
        onClick={() => void saveMarkdown()}
      >
        {t('export.markdown')}
      </button>
      {/* Busy but focusable (aria-disabled, not disabled): focus stays in the panel, so Escape still closes it. */}
      <button
        type="button"
        className="btn btn-small"
        aria-label={t('export.json.label', { title })}
        aria-busy={savingJson}
        aria-disabled={savingJson}
        onClick={() => void saveJson()}
      >
        {t('export.json')}
      </button>
      <p role="status" className="export-status">
        {note}
      </p>
    </div>
  );
}
