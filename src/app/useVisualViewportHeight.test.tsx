import { act, render } from '@testing-library/react';
import { useRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useVisualViewportHeight } from './useVisualViewportHeight.ts';

function Shell() {
  const ref = useRef<HTMLDivElement>(null);
  useVisualViewportHeight(ref);
  return <div ref={ref} data-testid="app" />;
}

/** A visual viewport `shown` tall, as Safari's is with its keyboard up; counts the reads of its height. */
function stubViewport(shown: number) {
  const viewport = Object.assign(new EventTarget(), { reads: 0, shown });
  Object.defineProperty(viewport, 'height', {
    get() {
      viewport.reads++;
      return viewport.shown;
    },
  });
  vi.stubGlobal('visualViewport', viewport);
  return viewport;
}

const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve));

describe('useVisualViewportHeight', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('reads the viewport in the next frame, not in the commit, and sizes the app to what is visible', async () => {
    const viewport = stubViewport(window.innerHeight - 300);
    const { getByTestId } = render(<Shell />);
    expect(viewport.reads).toBe(0);
    await act(nextFrame);
    expect(getByTestId('app').style.getPropertyValue('--app-height')).toBe(`${window.innerHeight - 300}px`);
  });

  it('follows the keyboard as it goes away', async () => {
    const viewport = stubViewport(window.innerHeight);
    const { getByTestId } = render(<Shell />);
    await act(nextFrame);
    expect(getByTestId('app').style.getPropertyValue('--app-height')).toBe('');
    viewport.shown = window.innerHeight - 200;
    act(() => {
      viewport.dispatchEvent(new Event('resize'));
    });
    expect(getByTestId('app').style.getPropertyValue('--app-height')).toBe(`${window.innerHeight - 200}px`);
  });
});
