import { FIRST_SCREEN_CONVERSATIONS } from '../../state/domain/recent.ts';

/** Rows the conversation list renders at first, and adds each time more are asked for. */
export const LIST_PAGE = FIRST_SCREEN_CONVERSATIONS;

/**
 * How many of the list's rows to render: the ones asked for so far (`shown`), and always as far as the
 * active conversation (a link may open one far down the list), never more than there are. A person with
 * 10,000 conversations gets the first hundred at once; the rest come as the list is scrolled, and search
 * finds any of them.
 */
export function rowsToRender(total: number, shown: number, activeIndex: number): number {
  return Math.min(total, Math.max(shown, activeIndex + 1));
}
