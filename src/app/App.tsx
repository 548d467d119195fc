import { type ComponentType, lazy, useCallback, useId, useRef, useState } from 'react';
import { MissingConversationBanner } from '../components/banners/MissingConversationBanner.tsx';
import { StorageWarning } from '../components/banners/StorageWarning.tsx';
import { ComparePanel } from '../components/compare/ComparePanel.tsx';
import { Composer } from '../components/composer/Composer.tsx';
import { ConversationView } from '../components/conversation/ConversationView.tsx';
import { Toolbar } from '../components/header/Toolbar.tsx';
import type { InspectorTarget } from '../components/inspector/Inspector.tsx';
import { markdownRenderer } from '../components/markdown/LazyMarkdown.tsx';
import { LoadBoundary } from '../components/shared/LoadBoundary.tsx';
import { ConversationList } from '../components/sidebar/ConversationList.tsx';
import { useServices } from '../hooks/appContext.tsx';
import { useChoices } from '../hooks/useChoices.ts';
import { useProtocolStream } from '../hooks/useProtocolStream.ts';
import { useAnswers, useCompare, useConversations } from '../hooks/useStores.ts';
import { useI18n } from '../i18n/I18nProvider.tsx';
import type { AttachmentRef } from '../state/domain/types.ts';
import { answerIn } from '../state/stores/answers.ts';
import { useMediaQuery } from './useMediaQuery.ts';
import { useVisualViewportHeight } from './useVisualViewportHeight.ts';
import './app.css';

/** The inspector (and its virtualized list) is fetched the first time it is opened, not at startup. */
const Inspector = lazy(() =>
  import('../components/inspector/Inspector.tsx').then(({ Inspector }) => ({ default: Inspector })),
);

/** Settings (with backups and storage figures) are fetched when first opened: the first screen needs none of it. */
const SettingsDialog = lazy(() =>
  import('../components/settings/SettingsDialog.tsx').then(({ SettingsDialog }) => ({
    default: SettingsDialog,
  })),
);

/** Below this width the sidebar is a drawer (see app.css). */
const narrowScreen = '(max-width: 760px)';

/**
 * What only team mode shows: its news above the conversation and the account at the sidebar's foot. They
 * come with team mode's code (`teamServices.ts`), fetched before the first screen only in team mode.
 */
export interface TeamViews {
  Banners: ComponentType;
  AccountPanel: ComponentType;
}

export function App({ team = null }: { team?: TeamViews | null }) {
  // The dropdown's protocol keys the stream that sends the next message.
  const { protocol } = useChoices();
  const stream = useProtocolStream(protocol);
  const { t } = useI18n();
  const conversation = useConversations((s) => (s.activeId ? (s.conversations[s.activeId] ?? null) : null));
  const streamingMessageId = useAnswers((s) => answerIn(s, conversation?.id ?? null));
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [sidebarOpen, setSidebarOpen] = useState(false);
  const sidebarId = useId();
  // A closed drawer is off-screen: out of the tab order and hidden from assistive technology.
  const sidebarHidden = useMediaQuery(narrowScreen) && !sidebarOpen;
  const closeSettings = useCallback(() => setSettingsOpen(false), []);
  const closeSidebar = useCallback(() => setSidebarOpen(false), []);
  const openSidebar = useCallback(() => setSidebarOpen(true), []);
  // `undefined`: closed; `null`: open without a turn (to import a recording).
  const [inspecting, setInspecting] = useState<InspectorTarget | null | undefined>(undefined);
  const appRef = useRef<HTMLDivElement>(null);
  useVisualViewportHeight(appRef);
  // The markdown renderer is fetched when the first answer is about to need it, not at startup.
  const { markdown, session } = useServices();
  const renderer = markdownRenderer(markdown);
  // While Compare is open, the message box asks every column at once.
  const comparing = useCompare((s) => s.open);
  const send = (text: string, attachments?: readonly AttachmentRef[]) => {
    void renderer.load();
    return comparing ? session.compare(text, attachments) : stream.send(text, attachments);
  };
  const stop = () => {
    if (comparing && conversation) session.stopAnswers(conversation.id);
    else if (streamingMessageId) stream.stop(streamingMessageId);
  };

  // Answers are memoized and keep the callbacks they first got: those read the current protocol's
  // stream and the current conversation at call time, never a stale one.
  const latest = useRef({ stream, conversationId: conversation?.id });
  latest.current = { stream, conversationId: conversation?.id };
  const onRetry = useCallback((messageId: string) => {
    const { stream, conversationId } = latest.current;
    if (conversationId) void stream.retry(conversationId, messageId);
  }, []);
  const onRegenerate = useCallback((messageId: string) => {
    const { stream, conversationId } = latest.current;
    if (conversationId) void stream.regenerate(conversationId, messageId);
  }, []);
  const onEdit = useCallback((messageId: string, text: string, attachments: readonly AttachmentRef[]) => {
    const { stream, conversationId } = latest.current;
    if (conversationId) void stream.edit(conversationId, messageId, text, attachments);
  }, []);
  const { conversations: conversationStore } = useServices().stores;
  const onSelectVersion = useCallback(
    (messageId: string) => {
      const { conversationId } = latest.current;
      if (conversationId) conversationStore.getState().selectVersion(conversationId, messageId);
    },
    [conversationStore],
  );
  const onStop = useCallback((messageId: string) => latest.current.stream.stop(messageId), []);
  const onToolResult = useCallback((toolCallId: string, name: string, content: string) => {
    const { stream, conversationId } = latest.current;
    if (conversationId) void stream.submitToolResult(conversationId, toolCallId, name, content);
  }, []);
  const onInspect = useCallback((messageId: string) => {
    const { conversationId } = latest.current;
    if (conversationId) setInspecting({ conversationId, messageId });
  }, []);

  return (
    <div
      ref={appRef}
      className="app"
      data-sidebar={sidebarOpen ? 'open' : 'closed'}
      data-inspector={inspecting === undefined ? 'closed' : 'open'}
      // What a reload does not bring back (the drawer, the inspector, the comparison): a screen showing it is
      // not one to paint first on the next load (./firstScreen).
      data-snapshot={sidebarOpen || inspecting !== undefined || comparing ? 'none' : undefined}
    >
      <ConversationList
        id={sidebarId}
        inert={sidebarHidden}
        onNavigate={closeSidebar}
        onRequestOpen={openSidebar}
        AccountPanel={team?.AccountPanel}
      />
      {sidebarOpen ? (
        <button
          type="button"
          className="sidebar-backdrop"
          aria-label={t('app.closeConversations')}
          onClick={() => setSidebarOpen(false)}
        />
      ) : null}
      <main className="main">
        <Toolbar
          conversation={conversation}
          sidebarId={sidebarId}
          sidebarOpen={sidebarOpen}
          onToggleSidebar={() => setSidebarOpen((open) => !open)}
          onOpenSettings={() => setSettingsOpen(true)}
          onOpenReplay={() => setInspecting(null)}
        />
        {/* One row of the layout, however many notices show (none: no height). */}
        <div className="main-notices">
          <MissingConversationBanner />
          {team ? <team.Banners /> : null}
        </div>
        {comparing ? (
          <ComparePanel conversation={conversation} onInspect={onInspect} />
        ) : (
          <ConversationView
            conversation={conversation}
            onRetry={onRetry}
            onRegenerate={onRegenerate}
            onEdit={onEdit}
            onSelectVersion={onSelectVersion}
            onStop={onStop}
            onToolResult={onToolResult}
            onExample={send}
            onInspect={onInspect}
          />
        )}
        <StorageWarning />
        <Composer
          draftKey={conversation?.id ?? 'new'}
          streaming={streamingMessageId !== null}
          onSend={send}
          onStop={stop}
          // The renderer is fetched as the first message is typed, ready when its answer begins.
          onTyping={renderer.load}
          gauge={{ conversation }}
        />
      </main>
      {inspecting !== undefined ? (
        <LoadBoundary onClose={() => setInspecting(undefined)}>
          <Inspector target={inspecting} onClose={() => setInspecting(undefined)} />
        </LoadBoundary>
      ) : null}
      {settingsOpen ? (
        <LoadBoundary onClose={closeSettings}>
          <SettingsDialog onClose={closeSettings} />
        </LoadBoundary>
      ) : null}
    </div>
  );
}
