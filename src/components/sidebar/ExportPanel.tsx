import { useServices } from '../../hooks/appContext.tsx';
import { exportWords } from '../../i18n/explain.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import {
  conversationFileName,
  exportConversationJson,
  exportConversationMarkdown,
} from '../../state/conversationExport.ts';
import { downloadText } from './download.ts';

export interface ExportPanelProps {
  id: string;
  /** The conversation's id and title. */
  conversationId: string;
  title: string;
  /** Escape: close, and put focus back on the button that opened it. */
  onClose(): void;
}

/** A conversation's export choices, under its row: Markdown to read, JSON to keep (never a credential). */
export function ExportPanel({ id, conversationId, title, onClose }: ExportPanelProps) {
  const { stores } = useServices();
  const i18n = useI18n();
  const { t } = i18n;
  const save = (format: 'md' | 'json') => {
    // Read at click time: the row does not re-render while an answer streams.
    const conversation = stores.conversations.getState().conversations[conversationId];
    if (!conversation) return;
    const { apiKey } = stores.settings.getState().settings;
    const now = Date.now();
    const name = conversationFileName(conversation, format, now);
    if (format === 'md') {
      downloadText(
        name,
        exportConversationMarkdown(conversation, apiKey, now, exportWords(i18n)),
        'text/markdown;charset=utf-8',
      );
    } else {
      downloadText(name, exportConversationJson(conversation, apiKey, now), 'application/json');
    }
  };
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Escape from either button closes the panel
    <div id={id} className="export-panel" onKeyDown={(e) => e.key === 'Escape' && onClose()}>
      <span className="export-label">{t('export.as')}</span>
      <button
        type="button"
        className="btn btn-small"
        aria-label={t('export.markdown.label', { title })}
        onClick={() => save('md')}
      >
        {t('export.markdown')}
      </button>
      <button
        type="button"
        className="btn btn-small"
        aria-label={t('export.json.label', { title })}
        onClick={() => save('json')}
      >
        {t('export.json')}
      </button>
    </div>
  );
}
