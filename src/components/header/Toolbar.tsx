import { conversationUsage } from '../../state/conversationStore.ts';
import type { Conversation } from '../../state/types.ts';
import { ModelSelect } from './ModelSelect.tsx';
import { ProtocolSelect } from './ProtocolSelect.tsx';
import { ReasoningSelect } from './ReasoningSelect.tsx';
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

export function Toolbar({
  conversation,
  sidebarId,
  sidebarOpen,
  onToggleSidebar,
  onOpenSettings,
  onOpenReplay,
}: ToolbarProps) {
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
        Conversations
      </button>
      <ProtocolSelect />
      <ModelSelect />
      <ReasoningSelect />
      <span className="toolbar-spacer" />
      {usage ? (
        <span
          className="conversation-usage"
          data-testid="conversation-usage"
          title="Tokens billed in this conversation, every attempt included"
        >
          <span className="usage-label">Conversation:</span> {usage.input.toLocaleString('en-US')} in ·{' '}
          {usage.output.toLocaleString('en-US')} out · {usage.total.toLocaleString('en-US')} total
        </span>
      ) : null}
      <button
        type="button"
        className="btn"
        title="Import and replay a recorded stream"
        onClick={onOpenReplay}
      >
        Recordings
      </button>
      <button type="button" className="btn" onClick={onOpenSettings}>
        Settings
      </button>
    </header>
  );
}
