import { type ReactNode, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useServices } from '../../hooks/appContext.tsx';
import { usePrices } from '../../hooks/usePrices.ts';
import { useAnswers } from '../../hooks/useStores.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import type { AttachmentRef, Conversation } from '../../state/domain/types.ts';
import { answerIn } from '../../state/stores/answers.ts';
import { AssistantTurn } from './AssistantTurn.tsx';
import { type BranchLayout, branchLayout, shownMessages } from './branchLayout.ts';
import { mountedAfterStep, type OpeningWindow, openingAt, openingAtEnd } from './openingWindow.ts';
import { createRenderQueue } from './renderQueue.ts';
import { RenderQueueContext } from './renderQueueContext.ts';
import { TurnErrorBoundary } from './TurnErrorBoundary.tsx';
import { UserMessage } from './UserMessage.tsx';
import { useFollowStream } from './useFollowStream.ts';
import './conversation.css';

export interface ConversationViewProps {
  conversation: Conversation | null;
  /** Retry after a failure: a new attempt of the same answer. */
  onRetry(messageId: string): void;
  /** A new version of a finished answer, to the same request. */
  onRegenerate(messageId: string): void;
  /** A new version of the person's message, with the text and files given, and its answer. */
  onEdit(messageId: string, text: string, attachments: readonly AttachmentRef[]): void;
  /** Shows that version of a message, and the branch through it. */
  onSelectVersion(messageId: string): void;
  onStop(messageId: string): void;
  onToolResult(toolCallId: string, name: string, content: string): void;
  onInspect?(messageId: string): void;
  onExample(text: string): void;
}

const examples = ['empty.example.table', 'empty.example.tool', 'empty.example.haiku'] as const;

const code = (chunks: ReactNode[]) => <code>{chunks}</code>;

function EmptyState({ onExample }: { onExample(text: string): void }) {
  const { t, rich } = useI18n();
  return (
    <div className="empty">
      <h1>HopBase Chat</h1>
      <p>{rich('empty.intro', { code })}</p>
      <ul className="examples">
        {examples
          .map((key) => t(key))
          .map((text) => (
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

interface Opened extends OpeningWindow {
  key: string | null;
  /** Messages added after the conversation opened always render at once (they are the live ones). */
  countAtOpen: number;
}

/**
 * The messages of one conversation, in the one pane that scrolls. Keeps the newest output in view while the
 * person is at the bottom (see useFollowStream), and renders finished answers far from the view lazily.
 */
export function ConversationView(props: ConversationViewProps) {
  const { conversation, onRetry, onRegenerate, onEdit, onSelectVersion, onStop, onToolResult } = props;
  const { onInspect, onExample } = props;
  const { t } = useI18n();
  const prices = usePrices();
  const key = conversation?.id ?? null;
  const scroll = useFollowStream(key);
  const [queue] = useState(() => createRenderQueue(() => scroll.scrollerRef.current));
  useEffect(() => () => queue.dispose(), [queue]);

  // The branch shown: what the person reads, and what the next request sends. Derived again only when the
  // tree changes, not on each frame of a streaming answer.
  const layoutRef = useRef<BranchLayout | null>(null);
  const layout = conversation ? branchLayout(conversation, layoutRef.current) : null;
  layoutRef.current = layout;
  const messages = layout && conversation ? shownMessages(layout, conversation) : [];
  // No edit or regenerate while an answer of this conversation streams: each would start a second one.
  const answering = useAnswers((s) => answerIn(s, key) !== null);

  // Which messages render at once: around where this conversation opens (its end, or where it was left).
  const [openedState, setOpened] = useState<Opened | null>(null);
  let opened = openedState;
  if (opened === null || opened.key !== key) {
    const saved = key === null ? undefined : scroll.savedFor(key);
    const at =
      saved && !saved.following && saved.anchorId !== null
        ? messages.findIndex((m) => m.id === saved.anchorId)
        : -1;
    const viewport = { width: window.innerWidth, height: window.innerHeight };
    const opening = at >= 0 ? openingAt(at) : openingAtEnd(messages, viewport);
    opened = { ...opening, key, countAtOpen: messages.length };
    setOpened(opened);
  }
  // The messages above the first ones, a few more each task, once the app's first screen is on screen.
  const { firstPaint } = useServices();
  useEffect(() => {
    if (opened.mountFrom === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let gone = false;
    void firstPaint.then(() => {
      if (gone) return;
      timer = setTimeout(() =>
        setOpened((o) =>
          o && o.key === opened.key ? { ...o, mountFrom: mountedAfterStep(o.mountFrom) } : o,
        ),
      );
    });
    return () => {
      gone = true;
      clearTimeout(timer);
    };
  }, [opened, firstPaint]);

  // A message the person just sent (or an edit): show it and follow the answer, wherever the pane was.
  // The newest one made, not the last one shown: moving between versions does not move the view.
  const lastUserId = conversation?.messages.findLast((m) => m.role === 'user')?.id;
  const seenUser = useRef({ key, id: lastUserId });
  useLayoutEffect(() => {
    const seen = seenUser.current;
    seenUser.current = { key, id: lastUserId };
    if (seen.key === key && lastUserId !== undefined && seen.id !== lastUserId) scroll.follow();
  }, [key, lastUserId, scroll.follow]);

  // Tests' DOM has no ResizeObserver: there, follow after each update.
  useLayoutEffect(() => scroll.afterUpdate());

  const toolResults = layout?.toolResults ?? {};
  const version = (index: number) => layout?.versions[index] ?? null;

  return (
    <div className="conversation-pane">
      {/* Focusable from script only: "Jump to latest" leaves the keyboard here, where PageUp/PageDown work. */}
      <div className="scroller" ref={scroll.scrollerRef} tabIndex={-1}>
        <RenderQueueContext.Provider value={queue}>
          <div className="messages" ref={scroll.contentRef}>
            {!conversation || conversation.messages.length === 0 ? (
              <EmptyState onExample={onExample} />
            ) : null}
            {messages.map((m, index) => {
              if (index < opened.mountFrom) return null;
              // Keyed by its place (the message before it), not its id: switching versions keeps the
              // switch mounted, and the keyboard on it.
              const place = `after:${messages[index - 1]?.id ?? ''}`;
              if (m.role === 'user') {
                return (
                  <UserMessage
                    key={place}
                    message={m}
                    version={version(index)}
                    canEdit={!answering}
                    onEdit={onEdit}
                    onSelectVersion={onSelectVersion}
                  />
                );
              }
              if (m.role === 'tool') return null;
              const deferMarkdown = index < opened.countAtOpen && (index < opened.from || index > opened.to);
              return (
                <TurnErrorBoundary key={place} resetKey={m}>
                  <AssistantTurn
                    message={m}
                    toolResults={toolResults}
                    canAnswerTools={m.id === layout?.awaitingTools}
                    canRegenerate={!answering}
                    version={version(index)}
                    prices={prices}
                    deferMarkdown={deferMarkdown}
                    onRetry={onRetry}
                    onRegenerate={onRegenerate}
                    onSelectVersion={onSelectVersion}
                    onStop={onStop}
                    onToolResult={onToolResult}
                    onInspect={onInspect}
                  />
                </TurnErrorBoundary>
              );
            })}
          </div>
        </RenderQueueContext.Provider>
      </div>
      {scroll.detached ? (
        // Not in a reload's snapshot of this screen (src/app/firstScreen), which opens at the end.
        <button type="button" className="btn jump-latest" data-snapshot="omit" onClick={scroll.jumpToLatest}>
          <span aria-hidden="true">↓ </span>
          {t('conversation.jumpLatest')}
        </button>
      ) : null}
    </div>
  );
}
