import { describe, expect, it } from 'vitest';
import { yieldToEventLoop } from '../../core/index.ts';
import { firstScreenFonts, warmFonts } from './warmFonts.ts';

/** A page whose canvas records each font it measures in. */
function fakePage(hasCanvas = true) {
  const measured: string[] = [];
  let font = '';
  const window = {
    document: {
      body: {},
      createElement: () => ({
        getContext: () =>
          hasCanvas
            ? {
                set font(value: string) {
                  font = value;
                },
                measureText: () => measured.push(font),
              }
            : null,
      }),
    },
    getComputedStyle: () => ({ fontFamily: 'system-ui, sans-serif' }),
  } as unknown as Window;
  return { window, measured };
}

describe('warmFonts', () => {
  it('measures in each font, the page’s text family or the one named, one font a task, none in the caller’s', async () => {
    const { window, measured } = fakePage();
    const warming = warmFonts(window, [
      { family: 'text', weight: 400, sizePx: 13 },
      { family: 'text', weight: 700, sizePx: 28 },
      { family: 'monospace', weight: 400, sizePx: 15 },
    ]);
    await Promise.resolve();
    const byTask = [measured.length];
    for (let task = 0; task < 3; task++) {
      await yieldToEventLoop();
      byTask.push(measured.length);
    }
    await warming;
    expect(byTask).toEqual([0, 1, 2, 3]);
    expect(measured).toEqual([
      '400 13px system-ui, sans-serif',
      '700 28px system-ui, sans-serif',
      '400 15px monospace',
    ]);
  });

  it('measures nothing where the page has no canvas to measure with', async () => {
    const { window, measured } = fakePage(false);
    await warmFonts(window, firstScreenFonts);
    expect(measured).toEqual([]);
  });
});
