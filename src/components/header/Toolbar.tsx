import type { ReactNode } from 'react';
import { usePrices } from '../../hooks/usePrices.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import { costOfConversation } from '../../state/domain/cost.ts';
import type { Conversation } from '../../state/domain/types.ts';
import { conversationUsage } from '../../state/stores/conversationStore.ts';
import { costFigure } from '../cost/costWords.ts';
import { LineIcon } from '../shared/LineIcon.tsx';
import { CompareButton } from './CompareButton.tsx';
import { ModelSelect } from './ModelSelect.tsx';
import { ParametersButton } from './ParametersButton.tsx';
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

/** A window with a panel at its left: the conversations' drawer. */
const sidebarIcon = 'M4 5h16a1 1 0 0 1 1 1v12a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1ZM9 5v14';
/** A play sign in a circle: a recorded stream played again. */
const replayIcon = 'M12 4a8 8 0 1 1 0 16a8 8 0 1 1 0-16ZM10 8.5v7l6-3.5Z';
/** Two sliders. */
const settingsIcon = 'M4 8h9m4 0h3M4 16h3m4 0h9M15 6v4M9 14v4';

export function Toolbar({
  conversation,
  sidebarId,
  sidebarOpen,
  onToggleSidebar,
  onOpenSettings,
  onOpenReplay,
}: ToolbarProps) {
  const i18n = useI18n();
  const { t, rich } = i18n;
  const prices = usePrices();
  const usage = conversation ? conversationUsage(conversation) : null;
  const cost = conversation ? costFigure(i18n, costOfConversation(conversation, prices), false) : null;
  return (
    <header className="toolbar">
      {/* An icon too: on a phone, the row it shares with the protocol must fit every language. */}
      <button
        type="button"
        className="btn toolbar-icon sidebar-toggle"
        aria-label={t('toolbar.conversations')}
        title={t('toolbar.conversations')}
        aria-expanded={sidebarOpen}
        aria-controls={sidebarId}
        onClick={onToggleSidebar}
      >
        <LineIcon d={sidebarIcon} />
      </button>
      <ProtocolSelect />
      <ModelSelect />
      <ReasoningSelect />
      <SystemPromptButton conversation={conversation} />
      <ParametersButton conversation={conversation} />
      <CompareButton />
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
      {cost ? (
        <span
          className="conversation-cost"
          data-testid="conversation-cost"
          title={t('cost.conversation.title')}
        >
          {cost}
        </span>
      ) : null}
      {/* Icons with their names: the toolbar's words must fit one row in every language. */}
      <button
        type="button"
        className="btn toolbar-icon"
        aria-label={t('toolbar.recordings')}
        title={t('toolbar.recordings.title')}
        onClick={onOpenReplay}
      >
        <LineIcon d={replayIcon} />
      </button>
      <button
        type="button"
        className="btn toolbar-icon"
        aria-label={t('toolbar.settings')}
        title={t('toolbar.settings')}
        onClick={onOpenSettings}
      >
        <LineIcon d={settingsIcon} />
      </button>
    </header>
  );
}
