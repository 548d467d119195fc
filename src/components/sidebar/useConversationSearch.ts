import { useEffect, useMemo, useState } from 'react';
import type { ConversationSearch, SearchOutcome } from '../../state/domain/conversationSearch.ts';
import type { Conversation } from '../../state/domain/types.ts';

/** The search's code, fetched once: it is not in the first screen's JavaScript. */
const loadSearch = () => import('../../state/domain/conversationSearch.ts');

/** Fetches the search's code ahead of the first query (the search box took focus): typing then finds it there. */
export function preloadSearch(): void {
  loadSearch().catch(() => {
    // The search itself asks again and says when it cannot be fetched.
  });
}

export type SearchState =
  | { kind: 'idle' }
  /** The search's code is being fetched: the normal list stays meanwhile. */
  | { kind: 'loading' }
  | { kind: 'unavailable' }
  | { kind: 'done'; outcome: SearchOutcome };

/**
 * The sidebar's search over `conversations` (null while no search is on) for `query`. Its index lives as long
 * as the sidebar, cached per conversation object (`conversationSearch.ts`); its code is fetched with the first
 * search.
 */
export function useConversationSearch(
  conversations: Readonly<Record<string, Conversation>> | null,
  order: readonly string[],
  query: string,
): SearchState {
  const [search, setSearch] = useState<ConversationSearch | 'unavailable' | null>(null);
  const wanted = conversations !== null && query.trim() !== '';
  useEffect(() => {
    if (!wanted || (search !== null && search !== 'unavailable')) return;
    let live = true;
    loadSearch().then(
      (module) => live && setSearch(module.createConversationSearch()),
      () => live && setSearch('unavailable'),
    );
    return () => {
      live = false;
    };
  }, [wanted, search]);
  return useMemo((): SearchState => {
    if (!wanted || conversations === null) return { kind: 'idle' };
    if (search === null) return { kind: 'loading' };
    if (search === 'unavailable') return { kind: 'unavailable' };
    return { kind: 'done', outcome: search.search(conversations, order, query) };
  }, [search, wanted, conversations, order, query]);
}
