/**
 * How tabs of the app tell each other what they stored. A message only names what changed and its new
 * revision; the receiver reads the records themselves from IndexedDB, the one source of truth. A tab
 * posts at most one message per committed save, and saves are already coalesced (a streaming answer is
 * written at most every 400 ms), so the channel carries a few small messages a second at most.
 */

export const tabChannelName = 'hopbase-chat';

export interface ChangeMessage {
  type: 'stored';
  /** The tab that stored it (a tab never receives its own messages, but a test may share one channel). */
  from: string;
  /** Conversations written or deleted, with the revision now stored. */
  conversations: { id: string; revision: number }[];
  settings: boolean;
}

/** The part of a BroadcastChannel persistence uses; tests may pass their own. */
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
export function readChangeMessage(data: unknown): ChangeMessage | null {
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
