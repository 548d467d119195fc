import { readScreenSnapshot, type ScreenSnapshot } from '../../state/storage/screenSnapshot.ts';
import { addressOf, buildOf } from './takeSnapshot.ts';

/** Elements the app never renders: a snapshot holding one was not written by it, and is not shown. */
const FOREIGN = 'script, iframe, frame, object, embed, base, meta, link, style, noscript, template';

/** Attributes whose value is a URL the browser may follow. */
const URL_ATTRIBUTE = /^(?:href|src|action|formaction|xlink:href)$/;

/** A `javascript:` (or `vbscript:`) URL, however spelled: the URL parser drops tabs and newlines anywhere. */
function scriptUrl(value: string): boolean {
  return /script:/i.test(value.replace(/[\t\n\r]/g, ''));
}

/**
 * Whether `content` holds only what the app renders: no element above, no event handler attribute, no
 * `javascript:` URL. The page's CSP would refuse their scripts anyway; this keeps them out of the page.
 */
export function harmless(content: DocumentFragment): boolean {
  if (content.querySelector(FOREIGN)) return false;
  for (const element of content.querySelectorAll('*'))
    for (const { name, value } of element.attributes)
      if (name.startsWith('on') || (URL_ATTRIBUTE.test(name) && scriptUrl(value))) return false;
  return true;
}

/**
 * Shows the snapshot the page left when it was hidden (`takeSnapshot`), as the first screen of this load,
 * before the app's code has run: inside `#root`, which the app's first commit empties (React clears a
 * root's container before its first render goes in). Shown only for the same address and build; inert and
 * hidden from assistive technology, as it is only a picture of the app until the app is there.
 * Returns whether it showed one.
 */
export function restoreFirstScreen(
  doc: Document,
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>,
) {
  const root = doc.getElementById('root');
  const snapshot = readScreenSnapshot(storage);
  if (!root || root.firstChild || !snapshot) return false;
  if (snapshot.build !== buildOf(doc) || snapshot.address !== addressOf(doc.location)) return false;
  const template = doc.createElement('template');
  template.innerHTML = snapshot.html;
  if (!harmless(template.content)) return false;
  for (const styled of template.content.querySelectorAll<HTMLElement>('[data-snapshot-style]')) {
    styled.style.cssText = styled.dataset.snapshotStyle!;
    styled.removeAttribute('data-snapshot-style');
  }
  addStylesheets(doc, snapshot);
  doc.documentElement.lang = snapshot.lang;
  const shown = doc.createElement('div');
  shown.className = 'first-screen';
  shown.setAttribute('inert', '');
  shown.setAttribute('aria-hidden', 'true');
  shown.setAttribute('aria-busy', 'true');
  shown.append(template.content);
  root.append(shown);
  placeScrolls(shown);
  recordTyping(doc, shown);
  return true;
}

/**
 * What is typed while the snapshot is shown (it looks like the app, so people type), kept on it as
 * `data-typed` for the app to take (`takeTyped`): characters, and Backspace on them. Enter is not a
 * send here. Stops once the app has replaced the snapshot.
 */
function recordTyping(doc: Document, shown: HTMLElement) {
  const onKey = (event: KeyboardEvent) => {
    if (!shown.isConnected) return doc.removeEventListener('keydown', onKey, true);
    if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
    const typed = shown.dataset.typed ?? '';
    if (event.key === 'Backspace') shown.dataset.typed = [...typed].slice(0, -1).join('');
    else if ([...event.key].length === 1) shown.dataset.typed = typed + event.key;
  };
  doc.addEventListener('keydown', onKey, true);
}

/**
 * Takes what was typed on `shown` (the snapshot, found before the app's first commit removed it), once.
 * The recording stops with the snapshot gone; what is typed after goes to the app.
 */
export function takeTyped(shown: HTMLElement | null): string {
  const typed = shown?.dataset.typed ?? '';
  if (shown) delete shown.dataset.typed;
  return typed;
}

/**
 * The stylesheets the page had loaded since it started (a math answer's), which the app adds only once its
 * code runs: render-blocking, so that the snapshot is never painted without them. The build's loader then
 * finds them there (it compares full URLs) and adds none again.
 */
function addStylesheets(doc: Document, snapshot: ScreenSnapshot) {
  const present = new Set(
    [...doc.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"][href]')].map(
      (link) => new URL(link.href, doc.baseURI).pathname,
    ),
  );
  for (const href of snapshot.stylesheets) {
    // Only the build's own files: a stylesheet from elsewhere could restyle the page.
    if (present.has(href) || !/^\/assets\/[\w.-]+\.css$/.test(href)) continue;
    const link = doc.createElement('link');
    link.rel = 'stylesheet';
    // As the build's loader asks for it: the same request, and the loader then finds it there.
    link.crossOrigin = '';
    link.href = href;
    link.setAttribute('blocking', 'render');
    doc.head.append(link);
  }
}

/**
 * The panes scrolled where they were, the conversation to its end. Once laid out with every stylesheet
 * (a ResizeObserver reports after layout, before that frame is painted), and again whenever a size changes,
 * until the app replaces the snapshot.
 */
function placeScrolls(shown: HTMLElement) {
  const place = () => {
    for (const pane of shown.querySelectorAll<HTMLElement>('[data-snapshot-scroll]'))
      pane.scrollTop = Number(pane.dataset.snapshotScroll);
    for (const pane of shown.querySelectorAll<HTMLElement>('[data-snapshot-end]'))
      pane.scrollTop = pane.scrollHeight;
  };
  const content = shown.querySelector('[data-snapshot-end]')?.firstElementChild;
  if (typeof ResizeObserver === 'undefined' || !content) return place();
  const observer = new ResizeObserver(() => {
    if (shown.isConnected) place();
    else observer.disconnect();
  });
  observer.observe(content);
}
