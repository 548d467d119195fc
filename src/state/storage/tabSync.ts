import type { ChangeFeed, FeedEvent, StoredChange } from './changeFeed.ts';

/**
 * How tabs of the app tell each other what they stored: the change feed of this browser's tabs, over a
 * BroadcastChannel. The receiver reads the records themselves from IndexedDB. A tab posts at most one
 * message per committed save, and saves are already coalesced (a streaming answer is written at most every
 * 400 ms), so the channel carries a few small messages a second at most.
 */

export const tabChannelName = 'hopbase-chat';

interface ChangeMessage extends StoredChange {
  type: 'stored';
  /** The feed that stored it (a channel never receives its own messages, but a test may share one). */
  from: string;
}

/** The part of a BroadcastChannel the tab feed uses; tests may pass their own. */
export interface TabChannel {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  close(): void;
}

/** The channel between this origin's tabs, or null where the browser has none (then tabs still never overwrite each other's newer records; they just learn of them later). */
export function openTabChannel(name = tabChannelName): TabChannel | null {
  const Channel = globalThis.BroadcastChannel;
  return typeof Channel === 'function' ? new Channel(name) : null;
}

/** A message from another tab, if it is one: anything else on the channel is ignored. */
function readChangeMessage(data: unknown): ChangeMessage | null {
  if (typeof data !== 'object' || data === null) return null;
  const message = data as Partial<ChangeMessage>;
  if (message.type !== 'stored' || typeof message.from !== 'string' || !Array.isArray(message.conversations))
    return null;
  const conversations = message.conversations.filter(
    (c): c is { id: string; revision: number } =>
      typeof c === 'object' && c !== null && typeof c.id === 'string' && typeof c.revision === 'number',
  );
  return { type: 'stored', from: message.from, conversations, settings: message.settings === true };
}

/**
 * The change feed between this browser's tabs, on `channel` (closed with the feed). Back from the
 * back/forward cache, where messages may have been missed, it says so.
 */
export function tabFeed(channel: TabChannel): ChangeFeed {
  const from = Math.random().toString(36).slice(2);
  const listeners = new Set<(event: FeedEvent) => void>();
  const tell = (event: FeedEvent) => {
    for (const listener of listeners) listener(event);
  };
  const onMessage = (event: MessageEvent) => {
    const message = readChangeMessage(event.data);
    if (!message || message.from === from) return;
    tell({ kind: 'stored', change: { conversations: message.conversations, settings: message.settings } });
  };
  const onShow = (event: Event) => {
    if ((event as PageTransitionEvent).persisted) tell({ kind: 'missed' });
  };
  channel.addEventListener('message', onMessage);
  globalThis.addEventListener?.('pageshow', onShow);
  return {
    announce(change) {
      if (!change.conversations.length && !change.settings) return true;
      const message: ChangeMessage = { type: 'stored', from, ...change };
      try {
        channel.postMessage(message);
        return true;
      } catch {
        return false; // A closed channel (the page is going away).
      }
    },
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      listeners.clear();
      channel.removeEventListener('message', onMessage);
      globalThis.removeEventListener?.('pageshow', onShow);
      channel.close();
    },
  };
}

/** The tab feed on this origin's channel, or null where the browser has no BroadcastChannel. */
export function openTabFeed(): ChangeFeed | null {
  const channel = openTabChannel();
  return channel && tabFeed(channel);
}
