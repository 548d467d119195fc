import { ownValue } from './idRecord.ts';
import type { ChatMessage, Conversation } from './types.ts';

/**
 * A conversation is a tree: each message follows its parent, and an edit or a regenerated answer is a
 * sibling of the message it replaces. What the person sees, and what a request sends, is one path through
 * it: the shown branch, chosen fork by fork (`Conversation.selected`, else the newest child).
 */

type Branching = Pick<Conversation, 'messages' | 'selected'>;

/** The key of a fork in `Conversation.selected`: the parent's id, `''` before the first message. */
function forkKey(parentId: string | null): string {
  return parentId ?? '';
}

interface Tree {
  /** Each message's fork key. */
  forkOf: Map<string, string>;
  /** Each fork's children, oldest first. */
  children: Map<string, ChatMessage[]>;
  byId: Map<string, ChatMessage>;
}

/** A message's parent; records from before branches have none: there it is the message before it. */
function parentAt(messages: readonly ChatMessage[], index: number): string | null {
  const parentId = messages[index]!.parentId;
  return parentId === undefined ? (messages[index - 1]?.id ?? null) : parentId;
}

// Built once per list of messages: a render asks for the branch and each message's versions.
const trees = new WeakMap<readonly ChatMessage[], Tree>();

function treeOf(messages: readonly ChatMessage[]): Tree {
  const known = trees.get(messages);
  if (known) return known;
  const tree: Tree = { forkOf: new Map(), children: new Map(), byId: new Map() };
  messages.forEach((message, index) => {
    const key = forkKey(parentAt(messages, index));
    tree.forkOf.set(message.id, key);
    tree.byId.set(message.id, message);
    const siblings = tree.children.get(key);
    if (siblings) siblings.push(message);
    else tree.children.set(key, [message]);
  });
  trees.set(messages, tree);
  return tree;
}

/** The messages shown, first to last: at each fork the chosen child, or the newest one. */
export function shownBranch(conversation: Branching): ChatMessage[] {
  const { children } = treeOf(conversation.messages);
  const path: ChatMessage[] = [];
  const seen = new Set<string>();
  let key = forkKey(null);
  for (;;) {
    const options = children.get(key);
    if (!options) return path;
    const chosen = ownValue(conversation.selected, key);
    const next = options.find((m) => m.id === chosen) ?? options.at(-1)!;
    // A damaged record could name a message its own ancestor: the path ends rather than loops.
    if (seen.has(next.id)) return path;
    seen.add(next.id);
    path.push(next);
    key = next.id;
  }
}

/** The path from the first message to `messageId`, both included; empty when there is no such message. */
export function pathTo(conversation: Branching, messageId: string): ChatMessage[] {
  const { forkOf, byId } = treeOf(conversation.messages);
  const path: ChatMessage[] = [];
  const seen = new Set<string>();
  for (let id: string | undefined = messageId; id && !seen.has(id); id = forkOf.get(id)) {
    const message = byId.get(id);
    if (!message) break;
    seen.add(id);
    path.push(message);
  }
  return path.reverse();
}

/** Where a message stands among the versions at its fork (itself and its siblings), oldest first. */
export interface Version {
  /** 1 for the oldest. */
  position: number;
  count: number;
  previousId: string | null;
  nextId: string | null;
}

export function versionOf(conversation: Branching, messageId: string): Version {
  const { forkOf, children } = treeOf(conversation.messages);
  const key = forkOf.get(messageId);
  const siblings = key === undefined ? [] : (children.get(key) ?? []);
  const index = siblings.findIndex((m) => m.id === messageId);
  if (index < 0) return { position: 1, count: 1, previousId: null, nextId: null };
  return {
    position: index + 1,
    count: siblings.length,
    previousId: siblings[index - 1]?.id ?? null,
    nextId: siblings[index + 1]?.id ?? null,
  };
}

/** `selected` with `messageId` chosen at its fork: the branch then goes through it. */
export function chooseVersion(conversation: Branching, messageId: string): Record<string, string> {
  const key = treeOf(conversation.messages).forkOf.get(messageId);
  const selected = conversation.selected ?? {};
  return key === undefined || ownValue(selected, key) === messageId
    ? selected
    : { ...selected, [key]: messageId };
}

/** The parent of the next message sent: the last message shown. */
export function nextParentId(conversation: Branching): string | null {
  return shownBranch(conversation).at(-1)?.id ?? null;
}

/** The parent of a message of `conversation` (null for a first message, and for an unknown one). */
export function parentOf(conversation: Branching, messageId: string): string | null {
  const key = treeOf(conversation.messages).forkOf.get(messageId);
  return key ? key : null;
}

/**
 * Messages from records made before branches, with the parent their place in the list gave them: each
 * follows the one before it. The same list when every message names its parent already.
 */
export function withParents(messages: ChatMessage[]): ChatMessage[] {
  if (messages.every((m) => m.parentId !== undefined)) return messages;
  return messages.map((m, index) =>
    m.parentId === undefined ? { ...m, parentId: parentAt(messages, index) } : m,
  );
}
