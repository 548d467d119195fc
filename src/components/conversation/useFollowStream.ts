import { useCallback, useLayoutEffect, useRef, useState } from 'react';

/** Within this many pixels of the end, the pane counts as "at the bottom" and follows new output. */
const BOTTOM_SLACK = 8;

/** Where a conversation was left: following its newest output, or at a message, so many pixels into it. */
export interface SavedScroll {
  following: boolean;
  /** `data-message-id` of the message at the top of the pane, and how far it was scrolled past. */
  anchorId: string | null;
  anchorOffset: number;
}

/** Keys that scroll a pane up (the pane or something in it focused). */
const UP_KEYS = new Set(['PageUp', 'ArrowUp', 'Home']);

function hasResizeObserver(): boolean {
  return typeof ResizeObserver !== 'undefined';
}

/**
 * The message element at the top of the pane, found by binary search over the list's children (in
 * document order, so their offsets increase): a few layout reads, whatever the length.
 */
function anchorAt(content: HTMLElement, top: number): { id: string; offset: number } | null {
  const children = content.children;
  let low = 0;
  let high = children.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const child = children[mid] as HTMLElement;
    if (child.offsetTop + child.offsetHeight > top) {
      found = mid;
      high = mid - 1;
    } else {
      low = mid + 1;
    }
  }
  for (let i = Math.max(found, 0); i < children.length; i++) {
    const child = children[i] as HTMLElement;
    const id =
      child.dataset.messageId ?? child.querySelector<HTMLElement>('[data-message-id]')?.dataset.messageId;
    if (id) return { id, offset: top - child.offsetTop };
  }
  return null;
}

/**
 * Follow the stream: while the person is at the bottom, new output stays in view; scrolling up stops
 * following (nothing pulls the view back) until they reach the bottom again or press "Jump to latest".
 * Each conversation (`key`) keeps where it was left.
 *
 * Following never forces a layout: a ResizeObserver on the content reports size changes after the
 * browser's own layout, and only then, when following, is the pane moved to the end; opening a
 * conversation at its end, or sending, waits for that layout too.
 */
export function useFollowStream(key: string | null) {
  const scrollerRef = useRef<HTMLDivElement | null>(null);
  const contentRef = useRef<HTMLDivElement | null>(null);
  const following = useRef(true);
  const lastTop = useRef(0);
  const saved = useRef(new Map<string, SavedScroll>());
  const [detached, setDetached] = useState(false);
  /**
   * A restored position, held for a moment: the answers around it get their real sizes only as they are
   * laid out (offscreen ones are estimated), so it is applied again when the content's size changes.
   */
  const pending = useRef<{ id: string; offset: number; until: number } | null>(null);
  const resizes = useRef<ResizeObserver | null>(null);

  const applyAnchor = useCallback((): boolean => {
    const target = pending.current;
    const scroller = scrollerRef.current;
    const content = contentRef.current;
    if (!target || !scroller || !content) return false;
    if (performance.now() > target.until) {
      pending.current = null;
      return false;
    }
    const anchor = content.querySelector<HTMLElement>(`[data-message-id="${CSS.escape(target.id)}"]`);
    if (!anchor) return false;
    // The anchor's own list child (an answer's error boundary adds no element of its own).
    let child: HTMLElement = anchor;
    while (child.parentElement && child.parentElement !== content) child = child.parentElement;
    scroller.scrollTop = child.offsetTop + target.offset;
    lastTop.current = scroller.scrollTop;
    return true;
  }, []);

  const scrollToEnd = useCallback(() => {
    const el = scrollerRef.current;
    if (!el) return;
    el.scrollTop = el.scrollHeight;
    lastTop.current = el.scrollTop;
  }, []);

  /**
   * To the end once the browser has laid the content out, not before: a new observation of the content
   * reports after the next layout, before that frame is painted, so the end is read from a layout already
   * done (reading it now would lay out everything in this task). At once where there is no ResizeObserver.
   */
  const toEndAfterLayout = useCallback(() => {
    const observer = resizes.current;
    const content = contentRef.current;
    if (!observer || !content) return scrollToEnd();
    observer.unobserve(content);
    observer.observe(content);
  }, [scrollToEnd]);

  /** The conversation shown, as of the last commit: where a position is remembered. */
  const shownKey = useRef(key);
  const remember = useCallback((state: SavedScroll) => {
    if (shownKey.current !== null) saved.current.set(shownKey.current, state);
  }, []);

  /**
   * What the person's scrolling says, measured from the pane: back at the bottom (following again), moved
   * up (following no more), and where they are, remembered for this conversation. Reads layout: called
   * where the browser has laid out already (a ResizeObserver callback), never from the scroll event.
   */
  const learnFromScroll = useCallback(
    (grown = 0) => {
      const el = scrollerRef.current;
      if (!el) return;
      // Our own restoring scroll: nothing to learn from it.
      if (pending.current && Math.abs(el.scrollTop - lastTop.current) < 1) return;
      const top = el.scrollTop;
      // Measured after the next layout: output that came since the scroll moved the end, not the person.
      const distance = el.scrollHeight - top - el.clientHeight - grown;
      if (distance <= BOTTOM_SLACK) following.current = true;
      else if (top < lastTop.current - 1) following.current = false; // the person moved up
      lastTop.current = top;
      setDetached(!following.current);
      if (following.current) {
        remember({ following: true, anchorId: null, anchorOffset: 0 });
      } else if (contentRef.current) {
        const anchor = anchorAt(contentRef.current, top);
        remember({ following: false, anchorId: anchor?.id ?? null, anchorOffset: anchor?.offset ?? 0 });
      }
    },
    [remember],
  );

  /** The pane scrolled since the last layout: learnt from after the next one. */
  const scrolled = useRef(false);
  /** The content's height as last observed, and as it was when the pane last scrolled. */
  const contentHeight = useRef(0);
  const heightAtScroll = useRef(0);

  // Content or pane size changed (output arrived, an answer rendered, the keyboard opened): follow. Also
  // where a scroll is learnt from: the layout is done here, so measuring forces none.
  useLayoutEffect(() => {
    const scroller = scrollerRef.current;
    const content = contentRef.current;
    if (!scroller || !content || !hasResizeObserver()) return;
    const observer = new ResizeObserver((entries) => {
      for (const entry of entries)
        if (entry.target === content)
          contentHeight.current = entry.borderBoxSize?.[0]?.blockSize ?? entry.contentRect.height;
      if (scrolled.current) {
        scrolled.current = false;
        // Growth counts only for output arriving: while a position is restored, the content changed with the
        // conversation shown, not with output.
        learnFromScroll(pending.current ? 0 : Math.max(0, contentHeight.current - heightAtScroll.current));
      }
      if (following.current) scrollToEnd();
      else if (pending.current) applyAnchor();
    });
    observer.observe(content);
    observer.observe(scroller);
    resizes.current = observer;
    return () => {
      resizes.current = null;
      observer.disconnect();
    };
  }, [scrollToEnd, applyAnchor, learnFromScroll]);

  // Another conversation: back to where it was left, or to its end.
  useLayoutEffect(() => {
    shownKey.current = key;
    const state = key === null ? undefined : saved.current.get(key);
    pending.current =
      state && !state.following && state.anchorId !== null
        ? { id: state.anchorId, offset: state.anchorOffset, until: performance.now() + 1000 }
        : null;
    if (applyAnchor()) {
      following.current = false;
      setDetached(true);
    } else {
      pending.current = null;
      following.current = true;
      toEndAfterLayout();
      setDetached(false);
    }
  }, [key, toEndAfterLayout, applyAnchor]);

  /**
   * The scroll event reads no layout (a stream keeps it stale: each read would lay out the conversation
   * in the scroll's task): it asks for an observation after the next layout, and is learnt from there
   * (`learnFromScroll`). At once where there is no ResizeObserver.
   */
  const onScroll = useCallback(() => {
    const observer = resizes.current;
    const content = contentRef.current;
    if (!observer || !content) return learnFromScroll();
    if (scrolled.current) return;
    scrolled.current = true;
    heightAtScroll.current = contentHeight.current;
    observer.unobserve(content);
    observer.observe(content);
  }, [learnFromScroll]);

  /** Intent to scroll up stops following at once, before the scroll itself arrives. */
  const stopFollowing = useCallback(() => {
    following.current = false;
    pending.current = null;
  }, []);
  // The person's own scrolling, listened to on the pane itself (passive: scrolling never waits for us).
  useLayoutEffect(() => {
    const scroller = scrollerRef.current;
    if (!scroller) return;
    const onWheel = (event: WheelEvent) => {
      if (event.deltaY < 0) stopFollowing();
    };
    const onKeyDown = (event: KeyboardEvent) => {
      // Not from inside a text field: its own keys move its caret.
      const target = event.target as HTMLElement;
      if (UP_KEYS.has(event.key) && !target.closest('input, textarea, select')) stopFollowing();
    };
    scroller.addEventListener('scroll', onScroll, { passive: true });
    scroller.addEventListener('wheel', onWheel, { passive: true });
    scroller.addEventListener('keydown', onKeyDown);
    return () => {
      scroller.removeEventListener('scroll', onScroll);
      scroller.removeEventListener('wheel', onWheel);
      scroller.removeEventListener('keydown', onKeyDown);
    };
  }, [onScroll, stopFollowing]);

  const jumpToLatest = useCallback(() => {
    pending.current = null;
    following.current = true;
    scrollToEnd();
    setDetached(false);
    remember({ following: true, anchorId: null, anchorOffset: 0 });
    // The button goes away: keyboard focus stays in the pane (PageUp/PageDown keep working).
    scrollerRef.current?.focus({ preventScroll: true });
  }, [remember, scrollToEnd]);

  /** The person sent a message: show it and what comes back, wherever they were. */
  const follow = useCallback(() => {
    pending.current = null;
    following.current = true;
    toEndAfterLayout();
    setDetached(false);
  }, [toEndAfterLayout]);

  /** Where there is no ResizeObserver (tests' DOM), follow after each update instead. */
  const afterUpdate = useCallback(() => {
    if (!hasResizeObserver() && following.current) scrollToEnd();
  }, [scrollToEnd]);

  return {
    scrollerRef,
    contentRef,
    /** Whether the person has scrolled away from the newest output ("Jump to latest" shows). */
    detached,
    jumpToLatest,
    follow,
    afterUpdate,
    /** The saved position of a conversation, to render the messages around it first. */
    savedFor: (k: string) => saved.current.get(k),
  };
}
