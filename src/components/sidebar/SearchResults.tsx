import { type KeyboardEvent, memo, type Ref } from 'react';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import type { SearchResult } from '../../state/domain/conversationSearch.ts';
import { Highlight } from './Highlight.tsx';
import { useConversationLabel } from './useConversationLabel.ts';

interface ResultRowProps {
  result: SearchResult;
  active: boolean;
  onOpen(id: string): void;
}

/** One matching conversation: its title and a snippet around the first match, matches highlighted. */
const ResultRow = memo(function ResultRow({ result, active, onOpen }: ResultRowProps) {
  const { t } = useI18n();
  const label = useConversationLabel(result.id);
  return (
    <li className={active ? 'active' : undefined}>
      <button
        type="button"
        className="conversation-open"
        aria-current={active ? 'page' : undefined}
        onClick={() => onOpen(result.id)}
      >
        <span className="conversation-title">
          {result.title.text ? <Highlight {...result.title} /> : label}
        </span>
        {result.snippet ? (
          <span className="search-snippet">
            <span className="search-kind">
              {t('search.kind', { kind: result.snippet.kind.replace(' ', '_') })}
            </span>{' '}
            <Highlight {...result.snippet} />
          </span>
        ) : null}
      </button>
    </li>
  );
});

export interface SearchResultsProps {
  ref: Ref<HTMLUListElement>;
  results: readonly SearchResult[];
  activeId: string | null;
  onOpen(id: string): void;
  /** Arrow up from the first result: back to the search box. */
  onLeaveTop(): void;
}

/** Up and down arrows move between results, as Tab does. */
function moveFocus(event: KeyboardEvent<HTMLUListElement>, onLeaveTop: () => void) {
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
  const buttons = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('button.conversation-open')];
  const at = buttons.indexOf(event.target as HTMLButtonElement);
  if (at < 0) return;
  event.preventDefault();
  const next = at + (event.key === 'ArrowDown' ? 1 : -1);
  if (next < 0) onLeaveTop();
  else buttons[Math.min(next, buttons.length - 1)]?.focus();
}

/** The conversations that match, in the sidebar's order, in place of the normal list. */
export function SearchResults({ ref, results, activeId, onOpen, onLeaveTop }: SearchResultsProps) {
  const { t } = useI18n();
  return (
    <ul
      ref={ref}
      className="conversation-list search-results"
      aria-label={t('search.results')}
      onKeyDown={(e) => moveFocus(e, onLeaveTop)}
    >
      {results.map((result) => (
        <ResultRow key={result.id} result={result} active={result.id === activeId} onOpen={onOpen} />
      ))}
    </ul>
  );
}
