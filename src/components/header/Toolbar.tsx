import type { ReactNode } from 'react';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import { conversationUsage } from '../../state/conversationStore.ts';
import type { Conversation } from '../../state/types.ts';
import { ModelSelect } from './ModelSelect.tsx';
import { ProtocolSelect } from './ProtocolSelect.tsx';
import { ReasoningSelect } from './ReasoningSelect.tsx';
import { SystemPromptButton } from './SystemPromptButton.tsx';
import './toolbar.css';

export interface ToolbarProps {
  conversation: Conversation | null;
  /** The sidebar the "Conversations" button opens and closes on narrow screens. */
  sidebarId: string;
  sidebarOpen: boolean;
  onToggleSidebar(): void;
  onOpenSettings(): void;
  onOpenReplay(): void;
}

/** "Conversation:" before the total, which a narrow toolbar leaves out (toolbar.css). */
const usageLabel = (chunks: ReactNode[]) => <span className="usage-label">{chunks}</span>;

export function Toolbar({
  conversation,
  sidebarId,
  sidebarOpen,
  onToggleSidebar,
  onOpenSettings,
  onOpenReplay,
}: ToolbarProps) {
  const { t, rich } = useI18n();
  const usage = conversation ? conversationUsage(conversation) : null;
  return (
    <header className="toolbar">
      <button
        type="button"
        className="btn btn-small sidebar-toggle"
        aria-expanded={sidebarOpen}
        aria-controls={sidebarId}
        onClick={onToggleSidebar}
      >
        {t('toolbar.conversations')}
      </button>
      <ProtocolSelect />
      <ModelSelect />
      <ReasoningSelect />
      <SystemPromptButton conversation={conversation} />
      <span className="toolbar-spacer" />
      {usage ? (
        <span
          className="conversation-usage"
          data-testid="conversation-usage"
          title={t('toolbar.usage.title')}
        >
          {rich('toolbar.usage', { ...usage, label: usageLabel })}
        </span>
      ) : null}
      <button type="button" className="btn" title={t('toolbar.recordings.title')} onClick={onOpenReplay}>
        {t('toolbar.recordings')}
      </button>
      <button type="button" className="btn" onClick={onOpenSettings}>
        {t('toolbar.settings')}
      </button>
    </header>
  );
}
