import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  keepScreenSnapshot,
  readScreenSnapshot,
  type ScreenSnapshot,
} from '../../state/storage/screenSnapshot.ts';
import { harmless, restoreFirstScreen, takeTyped } from './restoreFirstScreen.ts';
import { filling, takeSnapshot } from './takeSnapshot.ts';

const BUILD = '/assets/index-Ab12.js';

/** A page as the build serves it: its module script, `#root` holding `app`, at `address`. */
function page(app: string, address = '/c/abc') {
  history.replaceState(null, '', address);
  document.head.innerHTML = `<script type="module" src="${BUILD}"></script><link rel="stylesheet" href="/assets/index-1.css">`;
  document.body.innerHTML = `<div id="root">${app}</div>`;
  document.documentElement.lang = 'en';
}

const root = () => document.getElementById('root')!;

/** The app's shape where it matters: a sidebar, the conversation's scroller and list, the message box. */
const APP = `
  <div class="app">
    <nav class="sidebar" style="width: 260px"><input aria-label="Search"></nav>
    <div class="conversation-pane">
      <div class="scroller">
        <div class="messages">
          <div data-message-id="m1">first question</div>
          <div data-message-id="m2">first answer</div>
          <div data-message-id="m3">second question</div>
          <div data-message-id="m4" data-testid="assistant-turn">second answer <img src="blob:http://x/1" alt="chart"></div>
        </div>
      </div>
      <button class="jump-latest" data-snapshot="omit">Jump to latest</button>
    </div>
    <form class="composer">
      <select aria-label="Model"><option>a</option><option>b</option></select>
      <input type="checkbox" aria-label="Think">
      <input type="password" aria-label="Key">
      <textarea aria-label="Message"></textarea>
    </form>
  </div>`;

/** Gives the list's items these heights and the scroller this height (jsdom lays nothing out). */
function layOut(heights: number[], scrollerHeight: number) {
  [...document.querySelectorAll<HTMLElement>('.messages > *')].forEach((item, i) => {
    Object.defineProperty(item, 'offsetHeight', { value: heights[i], configurable: true });
  });
  Object.defineProperty(document.querySelector('.scroller')!, 'clientHeight', { value: scrollerHeight });
}

/** The app's page, typed into and laid out, taken as a snapshot. */
function taken(): ScreenSnapshot {
  page(APP);
  layOut([100, 900, 100, 400], 400);
  document.querySelector('select')!.selectedIndex = 1;
  document.querySelector<HTMLInputElement>('[type="checkbox"]')!.checked = true;
  document.querySelector<HTMLInputElement>('[type="password"]')!.value = 'sk-secret';
  document.querySelector('textarea')!.value = 'a draft';
  document.querySelector<HTMLInputElement>('[aria-label="Search"]')!.value = 'needle';
  return takeSnapshot(document)!;
}

/** The next load: the same page, `#root` empty, the snapshot kept in localStorage. */
function nextLoad(snapshot: ScreenSnapshot, address = '/c/abc') {
  page('', address);
  localStorage.clear();
  keepScreenSnapshot(localStorage, snapshot);
}

beforeEach(() => localStorage.clear());
afterEach(() => {
  document.head.innerHTML = '';
  document.body.innerHTML = '';
});

describe('how much of the conversation a snapshot keeps', () => {
  it.each([
    [[300, 200, 100], 250, 1],
    [[300, 200, 100], 300, 1],
    [[300, 200, 100], 301, 2],
    [[300, 200, 100], 10_000, 3],
    [[], 500, 0],
    // Nothing laid out: all of it.
    [[0, 0, 0], 500, 3],
  ])('of items %j, to fill %i px: the first %i', (heights, fill, kept) => {
    expect(filling(heights, fill)).toBe(kept);
  });
});

describe('taking a snapshot of the screen', () => {
  it('keeps the address, the build, the language and the stylesheets of its own origin, by path', () => {
    page(APP);
    // As the build's loader adds a chunk's stylesheet: by its full URL.
    document.head.insertAdjacentHTML(
      'beforeend',
      `<link rel="stylesheet" href="${location.origin}/assets/math-2.css"><link rel="stylesheet" href="https://cdn.example/x.css">`,
    );
    expect(takeSnapshot(document)?.stylesheets).toEqual(['/assets/index-1.css', '/assets/math-2.css']);
    const snapshot = taken();
    expect(snapshot).toMatchObject({
      address: '/c/abc',
      build: BUILD,
      lang: 'en',
      stylesheets: ['/assets/index-1.css'],
    });
  });

  it('cuts the conversation to its last screenful and a half, from the end', () => {
    const { html } = taken();
    // 600 px to fill: the last answer (400) and the question before it (100) do not, the 900 px answer does.
    expect(html).not.toContain('first question');
    expect(html).toContain('first answer');
    expect(html).toContain('second answer');
  });

  it("cuts the sidebar's list to the rows down to its fold and half a screen more, where it is scrolled", () => {
    const rows = Array.from({ length: 8 }, (_, i) => `<li><button>Trip ${i}</button></li>`).join('');
    page(`<div class="app"><nav class="sidebar"><ul class="conversation-list">${rows}</ul></nav></div>`);
    const sidebar = document.querySelector<HTMLElement>('.sidebar')!;
    for (const row of document.querySelectorAll('.conversation-list > li'))
      Object.defineProperty(row, 'offsetHeight', { value: 100 });
    Object.defineProperty(sidebar, 'clientHeight', { value: 200 });
    const shown = () => takeSnapshot(document)!.html.match(/Trip \d/g);
    // 300 px to fill: three rows.
    expect(shown()).toEqual(['Trip 0', 'Trip 1', 'Trip 2']);
    sidebar.scrollTop = 200;
    expect(shown()).toEqual(['Trip 0', 'Trip 1', 'Trip 2', 'Trip 3', 'Trip 4']);
  });

  it('carries what markup does not hold: fields typed in, the option chosen, the box ticked; no password', () => {
    const { html } = taken();
    const copy = document.createElement('div');
    copy.innerHTML = html;
    expect(copy.querySelector('textarea')!.textContent).toBe('a draft');
    expect(copy.querySelector<HTMLInputElement>('[aria-label="Search"]')!.getAttribute('value')).toBe(
      'needle',
    );
    expect(copy.querySelectorAll('option')[1]!.hasAttribute('selected')).toBe(true);
    expect(copy.querySelector('[type="checkbox"]')!.hasAttribute('checked')).toBe(true);
    expect(html).not.toContain('sk-secret');
  });

  it('moves styles out of markup, drops object URLs, test ids and what only the live page shows', () => {
    const { html } = taken();
    expect(html).not.toMatch(/\sstyle=/);
    expect(html).toContain('data-snapshot-style="width: 260px"');
    expect(html).not.toContain('blob:');
    expect(html).not.toContain('Jump to latest');
    expect(html).not.toContain('data-testid');
    expect(html).toContain('data-snapshot-end');
  });

  it('takes none with a dialog or what a reload closes open, with no app mounted, with no build, or while a snapshot is shown', () => {
    page(`${APP}<div role="dialog" aria-modal="true">Settings</div>`);
    expect(takeSnapshot(document)).toBeNull();
    page(APP.replace('class="app"', 'class="app" data-snapshot="none"'));
    expect(takeSnapshot(document)).toBeNull();
    page('');
    expect(takeSnapshot(document)).toBeNull();
    page(APP);
    document.head.innerHTML = '';
    expect(takeSnapshot(document)).toBeNull();
    page(`<div class="first-screen">${APP}</div>`);
    expect(takeSnapshot(document)).toBeNull();
  });
});

describe('showing the snapshot on the next load', () => {
  it('paints it in #root, inert and hidden from assistive technology, as it was', () => {
    nextLoad(taken());
    expect(restoreFirstScreen(document, localStorage)).toBe(true);
    const shown = root().firstElementChild as HTMLElement;
    expect(shown.className).toBe('first-screen');
    expect(shown.hasAttribute('inert')).toBe(true);
    expect(shown.getAttribute('aria-hidden')).toBe('true');
    expect(shown.querySelector('textarea')!.value).toBe('a draft');
    // Styles set through the CSSOM, as the page's CSP requires.
    const sidebar = shown.querySelector<HTMLElement>('.sidebar')!;
    expect(sidebar.style.width).toBe('260px');
    expect(sidebar.hasAttribute('data-snapshot-style')).toBe(false);
    expect(document.documentElement.lang).toBe('en');
  });

  it('adds the stylesheets it was painted with, render-blocking, the build’s own only', () => {
    const snapshot = taken();
    nextLoad({
      ...snapshot,
      stylesheets: [
        '/assets/index-1.css',
        '/assets/math-2.css',
        'https://evil.example/x.css',
        '/assets/../x.css',
      ],
    });
    restoreFirstScreen(document, localStorage);
    const added = [...document.head.querySelectorAll('link[rel="stylesheet"]')].map((link) => [
      link.getAttribute('href'),
      link.getAttribute('blocking'),
    ]);
    expect(added).toEqual([
      ['/assets/index-1.css', null],
      ['/assets/math-2.css', 'render'],
    ]);
  });

  it('shows nothing at another address, of another build, or over an app already there', () => {
    const snapshot = taken();
    nextLoad(snapshot, '/c/other');
    expect(restoreFirstScreen(document, localStorage)).toBe(false);
    nextLoad({ ...snapshot, build: '/assets/index-Old.js' });
    expect(restoreFirstScreen(document, localStorage)).toBe(false);
    nextLoad(snapshot);
    root().innerHTML = '<div class="app">live</div>';
    expect(restoreFirstScreen(document, localStorage)).toBe(false);
    expect(root().textContent).toBe('live');
  });

  it.each([
    '<script>alert(1)</script>',
    '<img src="x" onerror="alert(1)">',
    '<a href="javascript:alert(1)">x</a>',
    '<a href=" java\tscript:alert(1)">x</a>',
    '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>',
    '<iframe src="https://evil.example"></iframe>',
    '<svg><style>@import "https://evil.example"</style></svg>',
    '<base href="https://evil.example/">',
    '<meta http-equiv="refresh" content="0;url=https://evil.example">',
    '<link rel="stylesheet" href="https://evil.example/x.css">',
    '<object data="x"></object>',
    '<form><button formaction="javascript:alert(1)">x</button></form>',
  ])('shows nothing of a snapshot the app did not write: %s', (html) => {
    nextLoad({ ...taken(), html: `<div class="app">${html}</div>` });
    expect(restoreFirstScreen(document, localStorage)).toBe(false);
    expect(root().childNodes).toHaveLength(0);
  });

  it('whatever the markup, puts no script, handler or script URL in the page', () => {
    const pieces = fc.constantFrom(
      '<script>x()</script>',
      '<img src=x onerror=x()>',
      '<a href="javascript:x()">',
      '<svg>',
      '<math>',
      '<style>',
      '</style>',
      '<template>',
      '<noscript>',
      '<p>',
      '</p>',
      '<!--',
      '-->',
      '"',
      "'",
      '<',
      '>',
      ' onclick=x() ',
      'text',
      '<div data-snapshot-style="color: red">',
      '<textarea>',
      '</textarea>',
      '<iframe srcdoc="<script>x()</script>">',
      '<table><mglyph><style><img src=x onerror=x()>',
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 12 }), (parts) => {
        nextLoad({ ...taken(), html: parts.join('') });
        restoreFirstScreen(document, localStorage);
        const elements = [...root().querySelectorAll('*')];
        expect(root().querySelector('script, iframe, style, base, meta, link, object, embed')).toBeNull();
        for (const element of elements)
          for (const { name, value } of element.attributes) {
            expect(name.startsWith('on')).toBe(false);
            if (/^(href|src|action|formaction|xlink:href)$/.test(name)) expect(value).not.toMatch(/script:/i);
          }
      }),
      { numRuns: 200 },
    );
  });

  it('judges a fragment harmless only when the app could have made it', () => {
    const fragment = (html: string) => {
      const template = document.createElement('template');
      template.innerHTML = html;
      return template.content;
    };
    expect(
      harmless(fragment('<div class="md"><a href="https://example.com">a link</a> <code>x</code></div>')),
    ).toBe(true);
    expect(harmless(fragment('<p title="javascript: a talk">the title is text, not a URL</p>'))).toBe(true);
    expect(harmless(fragment('<p onmouseover="x()">x</p>'))).toBe(false);
  });
});

describe('what is typed on the snapshot', () => {
  const press = (key: string, init: KeyboardEventInit = {}) =>
    document.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, ...init }));

  it('is kept for the app: characters and Backspace; no shortcut, no Enter; once', () => {
    nextLoad(taken());
    restoreFirstScreen(document, localStorage);
    const shown = root().firstElementChild as HTMLElement;
    for (const key of ['h', 'e', 'y', 'Backspace', 'i', '😀', 'Enter', 'Shift', 'ArrowLeft']) press(key);
    press('a', { ctrlKey: true });
    expect(takeTyped(shown)).toBe('hei😀');
    expect(takeTyped(shown)).toBe('');
    press('Backspace');
    expect(takeTyped(null)).toBe('');
  });

  it('stops being recorded once the app has replaced the snapshot', () => {
    nextLoad(taken());
    restoreFirstScreen(document, localStorage);
    const shown = root().firstElementChild as HTMLElement;
    press('a');
    root().textContent = '';
    press('b');
    expect(takeTyped(shown)).toBe('a');
  });

  it('reads the kept snapshot only through its validation', () => {
    nextLoad(taken());
    expect(readScreenSnapshot(localStorage)?.address).toBe('/c/abc');
  });
});
