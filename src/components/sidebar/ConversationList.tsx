import { useState } from 'react';
import { conversationUsage, useConversationStore } from '../../state/conversationStore.ts';
import { useLiveStore } from '../../state/liveStore.ts';
import './sidebar.css';

function RenameForm({ id, title, onDone }: { id: string; title: string; onDone(): void }) {
  const rename = useConversationStore((s) => s.renameConversation);
  const [value, setValue] = useState(title);
  return (
    <form
      className="rename"
      onSubmit={(e) => {
        e.preventDefault();
        rename(id, value);
        onDone();
      }}
    >
      <input
        aria-label="Conversation title"
        value={value}
        // biome-ignore lint/a11y/noAutofocus: the person just asked to rename this conversation
        autoFocus
        onChange={(e) => setValue(e.target.value)}
        onKeyDown={(e) => e.key === 'Escape' && onDone()}
      />
      <button type="submit" className="btn btn-small">
        Save
      </button>
    </form>
  );
}

/** The sidebar: every conversation, newest first, with new / rename / delete / switch. */
export function ConversationList({ onNavigate }: { onNavigate?: () => void }) {
  const order = useConversationStore((s) => s.order);
  const conversations = useConversationStore((s) => s.conversations);
  const activeId = useConversationStore((s) => s.activeId);
  const { newConversation, selectConversation, deleteConversation } = useConversationStore.getState();
  // A string keeps the selection stable between renders (a new Set each time would loop).
  const streamingIds = useLiveStore((s) =>
    Object.values(s.streams)
      .map((x) => x.conversationId)
      .join(' '),
  );
  const streaming = new Set(streamingIds.split(' '));
  const [renaming, setRenaming] = useState<string | null>(null);

  return (
    <nav className="sidebar" aria-label="Conversations">
      <div className="sidebar-top">
        <span className="brand">
          <img src="/favicon.svg" alt="" width={22} height={22} /> HopBase Chat
        </span>
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => {
            newConversation();
            onNavigate?.();
          }}
        >
          New chat
        </button>
      </div>
      {order.length === 0 ? <p className="sidebar-empty">No conversations yet.</p> : null}
      <ul className="conversation-list">
        {order.map((id) => {
          const conversation = conversations[id];
          if (!conversation) return null;
          const usage = conversationUsage(conversation);
          return (
            <li key={id} className={id === activeId ? 'active' : undefined}>
              {renaming === id ? (
                <RenameForm id={id} title={conversation.title} onDone={() => setRenaming(null)} />
              ) : (
                <>
                  <button
                    type="button"
                    className="conversation-open"
                    aria-current={id === activeId ? 'page' : undefined}
                    onClick={() => {
                      selectConversation(id);
                      onNavigate?.();
                    }}
                  >
                    <span className="conversation-title">{conversation.title}</span>
                    <span className="conversation-meta">
                      {streaming.has(id) ? 'streaming… · ' : ''}
                      {usage.total.toLocaleString('en-US')} tokens
                    </span>
                  </button>
                  <span className="conversation-actions">
                    <button
                      type="button"
                      className="btn btn-small"
                      aria-label={`Rename ${conversation.title}`}
                      title="Rename"
                      onClick={() => setRenaming(id)}
                    >
                      ✎
                    </button>
                    <button
                      type="button"
                      className="btn btn-small btn-danger"
                      aria-label={`Delete ${conversation.title}`}
                      title="Delete"
                      onClick={() => deleteConversation(id)}
                    >
                      ×
                    </button>
                  </span>
                </>
              )}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
