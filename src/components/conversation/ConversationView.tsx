import { useLayoutEffect, useRef } from 'react';
import type { ChatMessage, Conversation } from '../../state/types.ts';
import { AssistantTurn } from './AssistantTurn.tsx';
import { TurnErrorBoundary } from './TurnErrorBoundary.tsx';
import './conversation.css';

export interface ConversationViewProps {
  conversation: Conversation | null;
  onRetry(messageId: string): void;
  onStop(messageId: string): void;
  onToolResult(toolCallId: string, name: string, content: string): void;
  onInspect?(messageId: string): void;
  onExample(text: string): void;
}

const examples = [
  'Explain server-sent events with a table and a code sample',
  "What's the weather in Paris? Use the tool.",
  'Write a short haiku about streaming',
];

function EmptyState({ onExample }: { onExample(text: string): void }) {
  return (
    <div className="empty">
      <h1>HopBase Chat</h1>
      <p>
        Streams from Chat Completions, Responses and Anthropic Messages, with every token counted and every
        stall explained. Pick a protocol and a model above — the <code>sim-*</code> models are the built-in
        simulator, with faults on demand.
      </p>
      <ul className="examples">
        {examples.map((text) => (
          <li key={text}>
            <button type="button" className="btn" onClick={() => onExample(text)}>
              {text}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The answer whose tool calls may still get results: the last message that is not a tool result, when
 * it is an answer. Results for any older answer would land far from their call.
 */
function answerAwaitingTools(messages: readonly ChatMessage[]): string | null {
  const last = messages.findLast((m) => m.role !== 'tool');
  return last?.role === 'assistant' ? last.id : null;
}

/** The messages of one conversation; keeps the newest output in view unless the person scrolled up. */
export function ConversationView(props: ConversationViewProps) {
  const { conversation, onRetry, onStop, onToolResult, onInspect, onExample } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  const shownId = useRef(conversation?.id);

  // Runs on every content change of this conversation (the effect reads `conversation` itself).
  useLayoutEffect(() => {
    // Another conversation opens at its newest message, whatever was scrolled in the previous one.
    if (shownId.current !== conversation?.id) {
      shownId.current = conversation?.id;
      pinned.current = true;
    }
    const el = scroller.current;
    if (el && pinned.current) el.scrollTop = el.scrollHeight;
  }, [conversation]);

  const messages = conversation?.messages ?? [];
  const toolResults: Record<string, string> = {};
  for (const m of messages) if (m.role === 'tool') toolResults[m.toolCallId] = m.content;
  const awaitingTools = answerAwaitingTools(messages);

  return (
    <div
      className="scroller"
      ref={scroller}
      onScroll={(e) => {
        const el = e.currentTarget;
        pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 48;
      }}
    >
      <div className="messages">
        {!conversation || conversation.messages.length === 0 ? <EmptyState onExample={onExample} /> : null}
        {conversation?.messages.map((m) => {
          if (m.role === 'user') {
            return (
              <div key={m.id} className="user-message" data-testid="user-message">
                <p>{m.text}</p>
              </div>
            );
          }
          if (m.role === 'tool') return null;
          return (
            <TurnErrorBoundary key={m.id} resetKey={m}>
              <AssistantTurn
                message={m}
                toolResults={toolResults}
                canAnswerTools={m.id === awaitingTools}
                isLast={m === messages[messages.length - 1]}
                onRetry={onRetry}
                onStop={onStop}
                onToolResult={onToolResult}
                onInspect={onInspect}
              />
            </TurnErrorBoundary>
          );
        })}
      </div>
    </div>
  );
}
