import { type RefObject, useEffect } from 'react';

/**
 * Keeps the app the height of what is visible when an on-screen keyboard covers part of the window and the
 * browser does not shrink the layout for it (Safari; Chromium does, with `interactive-widget` in index.html):
 * sets `--app-height` on the app's element, which app.css uses over `100dvh`.
 */
export function useVisualViewportHeight(ref: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const viewport = window.visualViewport;
    const element = ref.current;
    if (!viewport || !element) return;
    const update = () => {
      const covered = window.innerHeight - viewport.height > 1;
      if (covered) element.style.setProperty('--app-height', `${Math.round(viewport.height)}px`);
      else element.style.removeProperty('--app-height');
    };
    // First checked in the next frame, not in this effect: reading the viewport's size lays the page out,
    // and at the first commit that is the app's first layout (17–60 ms in a fresh tab, traced) added to
    // React's task.
    const frame = requestAnimationFrame(update);
    viewport.addEventListener('resize', update);
    return () => {
      cancelAnimationFrame(frame);
      viewport.removeEventListener('resize', update);
      element.style.removeProperty('--app-height');
    };
  }, [ref]);
}
