import { yieldToEventLoop } from '../../core/index.ts';

/** A font of the page's text: its family (`text`: the page's own, `body`'s), weight and size. */
export interface TextFont {
  family: 'text' | 'monospace';
  weight: 400 | 600 | 700;
  sizePx: number;
}

/**
 * Every font of the first screen's text (header, sidebar, composer, the empty conversation's welcome and
 * its `<code>`). `e2e/firstScreen.spec.ts` checks the list against what a new device's first screen shows.
 */
export const firstScreenFonts: readonly TextFont[] = [
  { family: 'text', weight: 400, sizePx: 12 },
  { family: 'text', weight: 400, sizePx: 13 },
  { family: 'text', weight: 600, sizePx: 13 },
  { family: 'text', weight: 400, sizePx: 14 },
  { family: 'text', weight: 400, sizePx: 15 },
  { family: 'text', weight: 600, sizePx: 15 },
  { family: 'text', weight: 700, sizePx: 15 },
  { family: 'text', weight: 700, sizePx: 28 },
  { family: 'monospace', weight: 400, sizePx: 15 },
];

/**
 * Makes the first screen's fonts ready while the page waits for the server, one font a task. Each new
 * weight and size the first layout meets makes the renderer ask the browser process for it, synchronously
 * (on Linux a font match and a render style for each): traced on a new device beside two busy loops, 20–60
 * ms of that first layout's task was waiting on those answers. A canvas measuring a letter in each font
 * asks them first, and the layout finds them cached. The family is the page's text family (`body`'s),
 * read in the first of those tasks, not in the caller's.
 */
export async function warmFonts(
  window: Pick<Window, 'document' | 'getComputedStyle'>,
  fonts: readonly TextFont[],
): Promise<void> {
  await yieldToEventLoop();
  const context = window.document.createElement('canvas').getContext('2d');
  if (!context) return;
  const text = window.getComputedStyle(window.document.body).fontFamily;
  for (const [index, { family, weight, sizePx }] of fonts.entries()) {
    if (index > 0) await yieldToEventLoop();
    context.font = `${weight} ${sizePx}px ${family === 'text' ? text : family}`;
    context.measureText('a');
  }
}
