import {
  type ComponentType,
  memo,
  useCallback,
  useDeferredValue,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useServices } from '../../hooks/appContext.tsx';
import { useAnswers, useConversations, useStorageStatus } from '../../hooks/useStores.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import type { Conversation } from '../../state/domain/types.ts';
import { answeringConversations } from '../../state/stores/answers.ts';
import { conversationUsage } from '../../state/stores/conversationStore.ts';
import { PresetsButton } from '../presets/PresetsButton.tsx';
import { UsageButton } from '../usage/UsageButton.tsx';
import { ExportPanel } from './ExportPanel.tsx';
import { LIST_PAGE, rowsToRender } from './listWindow.ts';
import { MoreConversations } from './MoreConversations.tsx';
import { SearchBox } from './SearchBox.tsx';
import { SearchResults } from './SearchResults.tsx';
import { outcomeSummary, withStillReading } from './searchSummary.ts';
import { useConversationLabel } from './useConversationLabel.ts';
import { useConversationSearch } from './useConversationSearch.ts';
import { useDebouncedValue } from './useDebouncedValue.ts';
import './sidebar.css';

/** How long typing pauses before the search runs. */
const searchDelayMs = 150;

function RenameForm({ id, title, onDone }: { id: string; title: string; onDone(): void }) {
  const rename = useConversations((s) => s.renameConversation);
  const { t } = useI18n();
  const [value, setValue] = useState(title);
  return (
    <form
      className="rename"
      // A reload does not bring it back: its screen is not one to paint first (src/app/firstScreen).
      data-snapshot="none"
      onSubmit={(e) => {
        e.preventDefault();
        rename(id, value);
        onDone();
      }}
    >
      <input
        aria-label={t('sidebar.titleField')}
        value={value}
        // biome-ignore lint/a11y/noAutofocus: the person just asked to rename this conversation
        autoFocus
        onChange={(e) => setValue(e.target.value)}
        onKeyDown={(e) => e.key === 'Escape' && onDone()}
      />
      <button type="submit" className="btn btn-small">
        {t('action.save')}
      </button>
    </form>
  );
}

/** Token totals, remembered per conversation object: only a conversation that changed is summed again. */
const totals = new WeakMap<Conversation, number>();
function tokenTotal(conversation: Conversation): number {
  let total = totals.get(conversation);
  if (total === undefined) {
    total = conversationUsage(conversation).total;
    totals.set(conversation, total);
  }
  return total;
}

interface RowProps {
  id: string;
  active: boolean;
  streaming: boolean;
  renaming: boolean;
  onRename(id: string | null): void;
  onNavigate?: () => void;
}

/**
 * One conversation in the list. It selects only its title and token total (primitives), so a frame of a
 * streamed answer re-renders no row unless that row's own total changed.
 */
const ConversationRow = memo(function ConversationRow({
  id,
  active,
  streaming,
  renaming,
  onRename,
  onNavigate,
}: RowProps) {
  const storedTitle = useConversations((s) => s.conversations[id]?.title);
  const title = useConversationLabel(id);
  // To the minute, as it is shown: a streaming answer's saves do not re-render the row each time.
  const updatedMinute = useConversations((s) => Math.floor((s.conversations[id]?.updatedAt ?? 0) / 60_000));
  const { t, format } = useI18n();
  const total = useConversations((s) => {
    const conversation = s.conversations[id];
    return conversation ? tokenTotal(conversation) : 0;
  });
  const { stores } = useServices();
  const [exporting, setExporting] = useState(false);
  const exportPanelId = useId();
  const exportButton = useRef<HTMLButtonElement>(null);
  if (title === undefined || storedTitle === undefined) return null;
  const { selectConversation, deleteConversation } = stores.conversations.getState();
  return (
    <li className={[active ? 'active' : '', exporting ? 'exporting' : ''].join(' ').trim() || undefined}>
      {renaming ? (
        <RenameForm id={id} title={storedTitle} onDone={() => onRename(null)} />
      ) : (
        <>
          <button
            type="button"
            className="conversation-open"
            aria-current={active ? 'page' : undefined}
            onClick={() => {
              selectConversation(id);
              onNavigate?.();
            }}
          >
            <span className="conversation-title">{title}</span>
            <span className="conversation-meta">
              {t('sidebar.meta', {
                streaming: streaming ? 'yes' : 'no',
                tokens: total,
                when: format.when(updatedMinute * 60_000, Date.now()),
              })}
            </span>
          </button>
          <span className="conversation-actions">
            <button
              ref={exportButton}
              type="button"
              className="btn btn-small"
              aria-label={t('sidebar.export.label', { title })}
              aria-expanded={exporting}
              aria-controls={exporting ? exportPanelId : undefined}
              title={t('sidebar.export')}
              onClick={() => setExporting((open) => !open)}
            >
              ↓
            </button>
            <button
              type="button"
              className="btn btn-small"
              aria-label={t('sidebar.rename.label', { title })}
              title={t('sidebar.rename')}
              onClick={() => onRename(id)}
            >
              ✎
            </button>
            <button
              type="button"
              className="btn btn-small btn-danger"
              aria-label={t('sidebar.delete.label', { title })}
              title={t('sidebar.delete')}
              onClick={() => deleteConversation(id)}
            >
              ×
            </button>
          </span>
          {exporting ? (
            <ExportPanel
              id={exportPanelId}
              conversationId={id}
              title={title}
              onClose={() => {
                setExporting(false);
                exportButton.current?.focus();
              }}
            />
          ) : null}
        </>
      )}
    </li>
  );
});

export interface ConversationListProps {
  /** For the narrow-screen toggle's `aria-controls`. */
  id?: string;
  /** Set while the sidebar is an off-screen drawer: out of the tab order and the accessibility tree. */
  inert?: boolean;
  onNavigate?: () => void;
  /** Opens the sidebar while it is a closed drawer: the search shortcut needs it on screen. */
  onRequestOpen?: () => void;
  /** Team mode: who is signed in and their sync, at the foot (handed in: team mode's code is its own chunk). */
  AccountPanel?: ComponentType;
}

/**
 * The sidebar: every conversation, newest first, with new / rename / delete / export / switch, and a
 * search over titles and content. It subscribes to the order and the active id only (and to the
 * conversations while a search is on); rows select their own conversation.
 */
export const ConversationList = memo(function ConversationList({
  id,
  inert,
  onNavigate,
  onRequestOpen,
  AccountPanel,
}: ConversationListProps) {
  // The rows follow the order in a render that yields to the page: a long history's first hundred rows,
  // or a batch of older ones read in, are made a few at a time, never in one long task.
  const order = useDeferredValue(useConversations((s) => s.order));
  const unread = useStorageStatus((s) => s.unread);
  const activeId = useConversations((s) => s.activeId);
  const { stores, team } = useServices();
  const serverSearch = useMemo(() => (team ? (query: string) => team.search(query) : null), [team]);
  const i18n = useI18n();
  const { t } = i18n;
  const { newConversation } = stores.conversations.getState();
  // A string keeps the selection stable between renders (a new Set each time would loop).
  const streamingIds = useAnswers(answeringConversations);
  const streaming = new Set(streamingIds.split(' '));
  const [renaming, setRenaming] = useState<string | null>(null);
  const [shown, setShown] = useState(LIST_PAGE);
  const rendered = rowsToRender(order.length, shown, activeId === null ? -1 : order.indexOf(activeId));
  const showMore = useCallback(() => setShown((n) => n + LIST_PAGE), []);

  const [query, setQuery] = useState('');
  const searching = query.trim() !== '';
  const settledQuery = useDebouncedValue(searching ? query : '', searchDelayMs);
  const conversations = useConversations((s) => (searching ? s.conversations : null));
  const search = useConversationSearch(conversations, order, settledQuery, serverSearch);
  // Until the first search has run, the normal list stays: no flash of an empty result.
  const outcome = searching && search.kind === 'done' ? search.outcome : null;
  const showResults = outcome !== null;
  const searchBox = useRef<HTMLInputElement>(null);
  const results = useRef<HTMLUListElement>(null);
  const firstResult = () => results.current?.querySelector<HTMLButtonElement>('button.conversation-open');
  const openResult = useCallback(
    (conversationId: string) => {
      stores.conversations.getState().selectConversation(conversationId);
      onNavigate?.();
    },
    [stores, onNavigate],
  );
  const focusSearch = useCallback(() => {
    searchBox.current?.focus();
    searchBox.current?.select();
  }, []);
  // The shortcut on a narrow screen opens the drawer first; focus moves in once it is no longer inert.
  const focusWhenOpen = useRef(false);
  const onShortcut = () => {
    if (!inert) focusSearch();
    else if (onRequestOpen) {
      focusWhenOpen.current = true;
      onRequestOpen();
    }
  };
  useEffect(() => {
    if (inert || !focusWhenOpen.current) return;
    focusWhenOpen.current = false;
    focusSearch();
  }, [inert, focusSearch]);

  return (
    <nav id={id} className="sidebar" aria-label={t('sidebar.label')} inert={inert}>
      <div className="sidebar-top">
        <span className="brand">
          <img src="/favicon.svg" alt="" width={22} height={22} /> HopBase Chat
        </span>
        <div className="sidebar-new">
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => {
              newConversation();
              onNavigate?.();
            }}
          >
            {t('sidebar.new')}
          </button>
          <PresetsButton onStarted={onNavigate} />
        </div>
        <SearchBox
          ref={searchBox}
          value={query}
          onChange={setQuery}
          onShortcut={onShortcut}
          onOpenFirst={() => firstResult()?.click()}
          onFocusResults={() => firstResult()?.focus()}
        />
      </div>
      <p role="status" className="search-status">
        {outcome
          ? withStillReading(i18n, outcomeSummary(i18n, outcome, settledQuery), unread)
          : searching && search.kind === 'unavailable'
            ? t('search.unavailable')
            : searching && search.kind === 'loading'
              ? t('search.searching')
              : ''}
      </p>
      {outcome ? (
        <SearchResults
          ref={results}
          results={outcome.results}
          activeId={activeId}
          onOpen={openResult}
          onLeaveTop={focusSearch}
        />
      ) : null}
      {!showResults && order.length === 0 ? <p className="sidebar-empty">{t('sidebar.empty')}</p> : null}
      <ul className="conversation-list" hidden={showResults}>
        {order.slice(0, rendered).map((conversationId) => (
          <ConversationRow
            key={conversationId}
            id={conversationId}
            active={conversationId === activeId}
            streaming={streaming.has(conversationId)}
            renaming={renaming === conversationId}
            onRename={setRenaming}
            onNavigate={onNavigate}
          />
        ))}
        {rendered < order.length ? (
          <MoreConversations remaining={order.length - rendered} onMore={showMore} />
        ) : null}
      </ul>
      <div className="sidebar-foot">
        <UsageButton />
        {AccountPanel ? <AccountPanel /> : null}
      </div>
    </nav>
  );
});
