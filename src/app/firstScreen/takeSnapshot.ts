import type { ScreenSnapshot } from '../../state/storage/screenSnapshot.ts';

/**
 * How many items, of these heights in order, fill `fill` pixels (all of them when nothing is laid out): a
 * reload shows the conversation from its end and the sidebar's list from its start, so only a screenful of
 * each (and half again, for a taller window) is kept.
 */
export function filling(heights: readonly number[], fill: number): number {
  let height = 0;
  let kept = 0;
  for (const item of heights) {
    if (height >= fill) break;
    height += item;
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
 * shows: the conversation's last screenful, not the whole history, and the sidebar's first rows, not the
 * hundred it lists.
 */
export function takeSnapshot(doc: Document): ScreenSnapshot | null {
  const root = doc.getElementById('root');
  const build = buildOf(doc);
  const app = root?.firstElementChild;
  if (!root || !build || !app || app.classList.contains('first-screen')) return null;
  // A dialog, or what the components mark as not brought back by a reload: the next load would not match.
  if (doc.querySelector('[aria-modal="true"], [data-snapshot="none"]')) return null;
  const copy = copyOf(root, cutsOf(root));
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

/** The lists a reload shows part of, each with the items it keeps; and the conversation's scroller. */
interface Cuts {
  kept: Map<Element, Element[]>;
  scroller: Element | null;
}

/** Where `items` are laid out, their heights (offsetHeight: an element's own box, margins apart). */
const heightsOf = (items: Element[]) => items.map((item) => (item as HTMLElement).offsetHeight);

function cutsOf(root: HTMLElement): Cuts {
  const kept = new Map<Element, Element[]>();
  // The conversation: its last screenful and a half, from the end.
  const scroller = root.querySelector<HTMLElement>('.scroller');
  const messages = scroller?.querySelector('.messages');
  if (scroller && messages) {
    const items = [...messages.children];
    const count = filling(heightsOf(items).reverse(), scroller.clientHeight * 1.5);
    kept.set(messages, items.slice(items.length - count));
  }
  // The sidebar's list: the rows down to its fold (where it is scrolled) and half a screen more.
  const sidebar = root.querySelector<HTMLElement>('.sidebar');
  const list = sidebar?.querySelector('.conversation-list');
  if (sidebar && list) {
    const rows = [...list.children];
    kept.set(list, rows.slice(0, filling(heightsOf(rows), sidebar.scrollTop + sidebar.clientHeight * 1.5)));
  }
  return { kept, scroller: scroller && messages ? scroller : null };
}

/**
 * A copy of `live` with what markup does not hold (what is typed in the fields, where the panes are
 * scrolled), each list of `cuts` cut to its kept items.
 */
function copyOf(live: Element, cuts: Cuts): Element {
  const copy = live.cloneNode(false) as Element;
  const kept = cuts.kept.get(live);
  for (const child of kept ?? live.childNodes) {
    if (!(child instanceof Element)) copy.append(child.cloneNode(false));
    else if (kept) copy.append(deepCopy(child));
    else copy.append(copyOf(child, cuts));
  }
  if (live === cuts.scroller) copy.setAttribute('data-snapshot-end', '');
  carryState(live, copy);
  return copy;
}

/** A kept item, copied whole (the browser's own copy), its fields' state carried over. */
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
