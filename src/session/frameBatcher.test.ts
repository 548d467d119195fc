import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFrameScheduler, type FrameScheduler } from './frameBatcher.ts';

let scheduler: FrameScheduler;
const createFrameBatcher = <T>(apply: (value: T) => void) => scheduler.batcher<T>(apply);

/** Frames run only when the test says so. */
function manualFrames() {
  let queue: FrameRequestCallback[] = [];
  const raf = vi.fn((callback: FrameRequestCallback) => {
    queue.push(callback);
    return queue.length;
  });
  vi.stubGlobal('requestAnimationFrame', raf);
  return {
    raf,
    runFrame() {
      const run = queue;
      queue = [];
      for (const callback of run) callback(performance.now());
    },
  };
}

beforeEach(() => {
  scheduler = createFrameScheduler(document);
});

afterEach(() => {
  scheduler.dispose();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('a frame batcher', () => {
  it('applies many pushes within one frame once, with the last value', () => {
    const frames = manualFrames();
    const apply = vi.fn();
    const batcher = createFrameBatcher<number>(apply);
    for (let i = 1; i <= 100; i++) batcher.push(i);
    expect(apply).not.toHaveBeenCalled();
    expect(frames.raf).toHaveBeenCalledTimes(1);
    frames.runFrame();
    expect(apply).toHaveBeenCalledTimes(1);
    expect(apply).toHaveBeenCalledWith(100);

    // The next frame starts a new batch.
    batcher.push(101);
    batcher.push(102);
    expect(frames.raf).toHaveBeenCalledTimes(2);
    frames.runFrame();
    expect(apply).toHaveBeenCalledTimes(2);
    expect(apply).toHaveBeenLastCalledWith(102);
  });

  it('does nothing on a frame without pushes', () => {
    const frames = manualFrames();
    const apply = vi.fn();
    createFrameBatcher<number>(apply);
    frames.runFrame();
    expect(apply).not.toHaveBeenCalled();
    expect(frames.raf).not.toHaveBeenCalled();
  });

  it('flush applies the pending value immediately, and the scheduled frame then has nothing to do', () => {
    const frames = manualFrames();
    const apply = vi.fn();
    const batcher = createFrameBatcher<string>(apply);
    batcher.push('a');
    batcher.push('b');
    batcher.flush();
    expect(apply).toHaveBeenCalledTimes(1);
    expect(apply).toHaveBeenCalledWith('b');
    frames.runFrame();
    expect(apply).toHaveBeenCalledTimes(1);
    // Flushing with nothing pending applies nothing.
    batcher.flush();
    expect(apply).toHaveBeenCalledTimes(1);
  });

  it('a push after a flush is applied on a later frame', () => {
    const frames = manualFrames();
    const apply = vi.fn();
    const batcher = createFrameBatcher<number>(apply);
    batcher.push(1);
    batcher.flush();
    batcher.push(2);
    frames.runFrame();
    expect(apply.mock.calls).toEqual([[1], [2]]);
  });

  it('falls back to a timer when there is no requestAnimationFrame', () => {
    vi.stubGlobal('requestAnimationFrame', undefined);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const apply = vi.fn();
    const batcher = createFrameBatcher<number>(apply);
    batcher.push(1);
    batcher.push(2);
    vi.advanceTimersByTime(15);
    expect(apply).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(apply).toHaveBeenCalledTimes(1);
    expect(apply).toHaveBeenCalledWith(2);
  });
});

describe('a frame batcher holding a reader until the frame is painted (shown)', () => {
  /** Lets the tasks posted so far run. */
  const tasks = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('resolves after the frame that applies the pushed value, in a task of its own', async () => {
    const frames = manualFrames();
    const apply = vi.fn();
    const batcher = createFrameBatcher<number>(apply);
    batcher.push(1);
    let shown = false;
    void batcher.shown().then(() => {
      shown = true;
    });
    await tasks();
    expect(shown).toBe(false);
    frames.runFrame();
    expect(apply).toHaveBeenCalledWith(1);
    // Not within the frame's callback: after it, once the frame can have been painted.
    expect(shown).toBe(false);
    await tasks();
    expect(shown).toBe(true);
  });

  it('resolves at once (in a new task) when no frame is due', async () => {
    manualFrames();
    const batcher = createFrameBatcher<number>(vi.fn());
    await expect(batcher.shown()).resolves.toBeUndefined();
  });

  it('lets the reader go after 100 ms when the frame never comes', async () => {
    manualFrames();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const batcher = createFrameBatcher<number>(vi.fn());
    batcher.push(1);
    let shown = false;
    void batcher.shown().then(() => {
      shown = true;
    });
    await vi.advanceTimersByTimeAsync(99);
    expect(shown).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    vi.useRealTimers();
    await tasks();
    expect(shown).toBe(true);
  });

  it('lets the reader go when the page is hidden (no frames there), or the session ends', async () => {
    manualFrames();
    const batcher = createFrameBatcher<number>(vi.fn());
    batcher.push(1);
    const hiddenThen = batcher.shown();
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
    document.dispatchEvent(new Event('visibilitychange'));
    await expect(hiddenThen).resolves.toBeUndefined();
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => false });

    batcher.push(2);
    const disposedThen = batcher.shown();
    scheduler.dispose();
    await expect(disposedThen).resolves.toBeUndefined();
  });
});

describe('the next frame (where an answer ends)', () => {
  it('resolves in the animation frame, not before', async () => {
    const frames = manualFrames();
    let resolved = false;
    void scheduler.nextFrame().then(() => {
      resolved = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(resolved).toBe(false);
    frames.runFrame();
    // In the frame's own microtasks: what the caller then changes is laid out in that frame.
    await Promise.resolve();
    expect(resolved).toBe(true);
  });

  it('resolves at once when the page is hidden, and after 100 ms when no frame comes', async () => {
    const frames = manualFrames();
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
    await expect(scheduler.nextFrame()).resolves.toBeUndefined();
    expect(frames.raf).not.toHaveBeenCalled();
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => false });

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let done = false;
    void scheduler.nextFrame().then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(99);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
  });
});

describe('a frame batcher in a hidden tab', () => {
  const setHidden = (hidden: boolean) => {
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
    document.dispatchEvent(new Event('visibilitychange'));
  };
  afterEach(() => setHidden(false));

  it('uses a timer instead of animation frames, which browsers pause there', () => {
    vi.useFakeTimers();
    const frames = manualFrames();
    setHidden(true);
    const apply = vi.fn();
    createFrameBatcher<number>(apply).push(1);
    expect(frames.raf).not.toHaveBeenCalled();
    vi.advanceTimersByTime(300);
    expect(apply).toHaveBeenCalledWith(1);
  });

  it('applies what is pending as soon as the page is hidden', () => {
    manualFrames();
    const apply = vi.fn();
    createFrameBatcher<number>(apply).push(7);
    setHidden(true);
    expect(apply).toHaveBeenCalledWith(7);
  });

  it('stops flushing on hide once disposed', () => {
    manualFrames();
    const apply = vi.fn();
    scheduler.batcher<number>(apply).push(7);
    scheduler.dispose();
    setHidden(true);
    expect(apply).not.toHaveBeenCalled();
  });

  it('cancel drops the pending value', () => {
    const frames = manualFrames();
    const apply = vi.fn();
    const batcher = createFrameBatcher<number>(apply);
    batcher.push(1);
    batcher.cancel();
    frames.runFrame();
    setHidden(true);
    expect(apply).not.toHaveBeenCalled();
  });
});
