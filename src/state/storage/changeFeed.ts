/**
 * "Changes from elsewhere": whoever else keeps this person's data (another tab of this browser today, the
 * team server's change feed later) says what it stored, and hears what this one stored. A change only names
 * what changed and its new revision, never the content: the receiver reads the records from the store both
 * share, the one source of truth.
 */

export interface StoredChange {
  /** Conversations written or deleted, with the revision now stored. */
  readonly conversations: readonly { readonly id: string; readonly revision: number }[];
  readonly settings: boolean;
}

export type FeedEvent =
  | { readonly kind: 'stored'; readonly change: StoredChange }
  /** Changes may have been missed (the page came back from the back/forward cache, a connection dropped): read everything. */
  | { readonly kind: 'missed' };

export interface ChangeFeed {
  /** Tells the others what this one stored; false when it could not (they learn of it when they next read). */
  announce(change: StoredChange): boolean;
  /** Hears what the others stored (never this feed's own announcements); returns the function that stops. */
  listen(listener: (event: FeedEvent) => void): () => void;
  close(): void;
}
