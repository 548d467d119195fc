import { useEffect, useMemo, useRef, useState } from 'react';
import type { ConversationSearch, SearchOutcome } from '../../state/domain/conversationSearch.ts';
import type { Conversation } from '../../state/domain/types.ts';
import type { ServerFound } from '../../state/team/teamAccount.ts';

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

/** Where a search runs when this browser may not hold everything: team mode asks the server's database. */
export type ServerSearch = (query: string) => Promise<ServerFound | null>;

/**
 * How long one slice of a long history's indexing and matching may take: the first search of thousands of
 * conversations folds seconds of text, a query found late in each scans megabytes, and the page answers
 * between slices.
 */
const INDEX_SLICE_MS = 12;

/** The server's answer for `query` (null: it could not be asked). */
interface Found {
  query: string;
  found: ServerFound | null;
}

/**
 * The sidebar's search over `conversations` (null while no search is on) for `query`. Its index lives as long
 * as the sidebar, cached per conversation object (`conversationSearch.ts`); its code is fetched with the first
 * search. With `serverSearch` (team mode) the database finds the conversations, and only those are searched
 * here, for their highlights (the server's order and count); if the server cannot be asked, everything this
 * browser holds is searched. While the server is asked, the last results stay.
 */
export function useConversationSearch(
  conversations: Readonly<Record<string, Conversation>> | null,
  order: readonly string[],
  query: string,
  serverSearch: ServerSearch | null = null,
): SearchState {
  const [search, setSearch] = useState<ConversationSearch | 'unavailable' | null>(null);
  const [asked, setAsked] = useState<Found | null>(null);
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
  useEffect(() => {
    if (!wanted || serverSearch === null) return;
    let live = true;
    void serverSearch(query).then((found) => live && setAsked({ query, found }));
    return () => {
      live = false;
    };
  }, [wanted, serverSearch, query]);
  const last = useRef<SearchState>({ kind: 'loading' });
  /** Bumped when a slice finished the indexing and matching: the search then gathers the results. */
  const [indexed, setIndexed] = useState(0);
  /** What the search runs over, once indexed; null while the server's answer is awaited. */
  const scope = useMemo((): readonly string[] | null => {
    if (serverSearch === null) return order;
    if (asked?.query !== query) return null;
    return asked.found?.ids ?? order;
  }, [serverSearch, asked, query, order]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `indexed` changes when slices below finished the index and matches that `prepare` reads through its caches: the search then runs
  const state = useMemo((): SearchState & { preparing?: true } => {
    if (!wanted || conversations === null) return { kind: 'idle' };
    if (search === null) return { kind: 'loading' };
    if (search === 'unavailable') return { kind: 'unavailable' };
    if (scope === null) return last.current;
    // What this frame has time for; the rest is indexed and matched in slices below, the last results staying.
    if (!search.prepare(conversations, scope, performance.now() + INDEX_SLICE_MS, query))
      return { ...last.current, preparing: true };
    const outcome = search.search(conversations, scope, query);
    const found = serverSearch === null ? null : asked?.found;
    // Those this browser has not read yet are counted, not shown.
    return {
      kind: 'done',
      outcome: found ? { ...outcome, total: Math.max(found.total, outcome.total) } : outcome,
    };
  }, [search, wanted, conversations, query, serverSearch, asked, scope, indexed]);
  const preparing = 'preparing' in state;
  useEffect(() => {
    if (!preparing || conversations === null || scope === null || search === null || search === 'unavailable')
      return;
    let timer: ReturnType<typeof setTimeout>;
    const slice = () => {
      if (search.prepare(conversations, scope, performance.now() + INDEX_SLICE_MS, query))
        setIndexed((n) => n + 1);
      else timer = setTimeout(slice, 0);
    };
    timer = setTimeout(slice, 0);
    return () => clearTimeout(timer);
  }, [preparing, conversations, scope, search, query]);
  if (!preparing) last.current = state.kind === 'idle' ? { kind: 'loading' } : state;
  return preparing ? last.current : state;
}
