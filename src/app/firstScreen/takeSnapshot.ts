import type { ScreenSnapshot } from '../../state/storage/screenSnapshot.ts';

/**
 * How many of the last items, of these heights in order, fill `fill` pixels: the conversation is shown from
 * its end, so only its last screenful (and half again, for a taller window) is kept.
 */
export function lastFilling(heights: readonly number[], fill: number): number {
  let height = 0;
  let kept = 0;
  for (let i = heights.length - 1; i >= 0 && height < fill; i--) {
    height += heights[i]!;
    kept++;
  }
  return kept;
}

/** The page's main script: what says which build a snapshot was taken of. */
export function buildOf(doc: Document): string | null {
  return doc.querySelector('script[type="module"][src]')?.getAttribute('src') ?? null;
}

/** The address a snapshot is shown at. */
export function addressOf(location: Pick<Location, 'pathname' | 'search'>): string {
  return location.pathname + location.search;
}

/**
 * The app as it is on screen, for the next load's first paint; null when the screen is not one to show
 * again (a dialog open, something open that a reload closes, the app not mounted yet, a snapshot itself
 * still shown). Runs as the page is hidden, on the way to the next load, so it copies only what that load
 * shows: the conversation's last screenful, not the whole history.
 */
export function takeSnapshot(doc: Document): ScreenSnapshot | null {
  const root = doc.getElementById('root');
  const build = buildOf(doc);
  const app = root?.firstElementChild;
  if (!root || !build || !app || app.classList.contains('first-screen')) return null;
  // A dialog, or what the components mark as not brought back by a reload: the next load would not match.
  if (doc.querySelector('[aria-modal="true"], [data-snapshot="none"]')) return null;
  const copy = copyOf(root, conversationEnd(root));
  // What the components mark as only making sense on the live page.
  for (const omitted of copy.querySelectorAll('[data-snapshot="omit"]')) omitted.remove();
  // The page's CSP refuses a `style` attribute in markup; the restoring script sets them through the CSSOM.
  for (const styled of copy.querySelectorAll('[style]')) {
    styled.setAttribute('data-snapshot-style', styled.getAttribute('style')!);
    styled.removeAttribute('style');
  }
  // A picture of the app names none of its parts: what finds them by test id finds the live app's only.
  for (const named of copy.querySelectorAll('[data-testid]')) named.removeAttribute('data-testid');
  // An object URL names bytes of this page only: gone after the reload.
  for (const image of copy.querySelectorAll('img[src^="blob:"]')) image.removeAttribute('src');
  return {
    address: addressOf(doc.location),
    build,
    lang: doc.documentElement.lang,
    stylesheets: stylesheetsOf(doc),
    html: copy.innerHTML,
  };
}

/**
 * The page's stylesheets of its own origin, by path (the build's loader gives a chunk's stylesheet its full
 * URL; the page's own is a path already).
 */
function stylesheetsOf(doc: Document): string[] {
  const paths: string[] = [];
  for (const link of doc.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"][href]')) {
    const url = new URL(link.href, doc.baseURI);
    if (url.origin === doc.location.origin) paths.push(url.pathname);
  }
  return paths;
}

/** The conversation's list and which of its items a reload shows: its last screenful and a half. */
interface ConversationEnd {
  scroller: Element;
  messages: Element;
  kept: Element[];
}

function conversationEnd(root: HTMLElement): ConversationEnd | null {
  const scroller = root.querySelector<HTMLElement>('.scroller');
  const messages = scroller?.querySelector('.messages');
  if (!scroller || !messages) return null;
  const items = [...messages.children];
  const kept = lastFilling(
    items.map((item) => (item as HTMLElement).offsetHeight),
    scroller.clientHeight * 1.5,
  );
  return { scroller, messages, kept: items.slice(items.length - kept) };
}

/**
 * A copy of `live` with what markup does not hold (what is typed in the fields, where the panes are
 * scrolled), the conversation's list cut to its kept items.
 */
function copyOf(live: Element, end: ConversationEnd | null): Element {
  const copy = live.cloneNode(false) as Element;
  const children = live === end?.messages ? end.kept : live.childNodes;
  for (const child of children) {
    if (!(child instanceof Element)) copy.append(child.cloneNode(false));
    else if (live === end?.messages) copy.append(deepCopy(child));
    else copy.append(copyOf(child, end));
  }
  if (live === end?.scroller) copy.setAttribute('data-snapshot-end', '');
  carryState(live, copy);
  return copy;
}

/** A message, copied whole (the browser's own copy), its fields' state carried over. */
function deepCopy(live: Element): Element {
  const copy = live.cloneNode(true) as Element;
  const fields = live.querySelectorAll('input, textarea, select');
  const copies = copy.querySelectorAll('input, textarea, select');
  fields.forEach((field, i) => {
    carryState(field, copies[i]!);
  });
  return copy;
}

function carryState(live: Element, copy: Element) {
  if (live.scrollTop > 0 && !copy.hasAttribute('data-snapshot-end'))
    copy.setAttribute('data-snapshot-scroll', String(live.scrollTop));
  if (live instanceof HTMLTextAreaElement) copy.textContent = live.value;
  else if (live instanceof HTMLSelectElement)
    copy.querySelectorAll('option').forEach((option, o) => {
      option.toggleAttribute('selected', o === live.selectedIndex);
    });
  else if (live instanceof HTMLInputElement) {
    if (live.type === 'checkbox' || live.type === 'radio') copy.toggleAttribute('checked', live.checked);
    else if (live.type !== 'password' && live.type !== 'file') copy.setAttribute('value', live.value);
  }
}
