/**
 * How much of a text that came faster than one frame should lay out is shown (`Markdown.tsx`): a text
 * that appeared live is shown over frames, each taking twice the last one's share, up to a cap; one that
 * was already there when it appeared (a saved answer) is shown whole at once.
 *
 * Kept as a component's state, not in refs: any render of it, also one for another reason (a sync
 * update elsewhere), shows what the last reveal allowed, never more (more is parsed only in the
 * reveal's own frame, rendered as a transition).
 */
export interface Reveal {
  /** The length shown when the reveal last advanced. */
  shown: number;
  /** How many characters past `shown` may be shown now. */
  share: number;
}

export function startReveal(live: boolean, firstShare: number): Reveal {
  return live ? { shown: 0, share: firstShare } : { shown: Number.POSITIVE_INFINITY, share: 0 };
}

/** The length of a text of `length` characters shown under `reveal`. */
export function revealedLength(reveal: Reveal, length: number): number {
  return Math.min(length, reveal.shown + reveal.share);
}

/** The next frame's reveal, once `shownLength` characters are shown: twice the share, at most `maxShare`. */
export function advanceReveal(reveal: Reveal, shownLength: number, maxShare: number): Reveal {
  return { shown: shownLength, share: Math.min(maxShare, reveal.share * 2) };
}
