import type { Conversation } from './types.ts';

/** How many conversations a first screen shows at most: the list's first page. */
export const FIRST_SCREEN_CONVERSATIONS = 100;

/**
 * The ids of the `count` conversations last changed, newest first. One pass that keeps the best so far:
 * it runs on every write, over histories of thousands.
 */
export function newestIds(
  conversations: Readonly<Record<string, Conversation>>,
  count = FIRST_SCREEN_CONVERSATIONS,
): string[] {
  const best: Conversation[] = [];
  for (const id in conversations) {
    const conversation = conversations[id]!;
    if (best.length === count && conversation.updatedAt <= best[count - 1]!.updatedAt) continue;
    let at = best.length;
    while (at > 0 && best[at - 1]!.updatedAt < conversation.updatedAt) at--;
    best.splice(at, 0, conversation);
    if (best.length > count) best.pop();
  }
  return best.map((c) => c.id);
}

/** Whether two lists of ids are the same, in the same order. */
export function sameIds(a: readonly string[] | null, b: readonly string[]): boolean {
  return a !== null && a.length === b.length && a.every((id, i) => id === b[i]);
}
