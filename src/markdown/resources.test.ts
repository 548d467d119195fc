import { describe, expect, it, vi } from 'vitest';
import { lazyChunk } from './lazyChunk.ts';
import { createMarkdownResources } from './resources.ts';

/** A fetch the test resolves or rejects when it wants. */
function deferredFetch<T>() {
  const settle: { resolve(value: T): void; reject(error: Error): void }[] = [];
  const fetch = vi.fn(
    () =>
      new Promise<T>((resolve, reject) => {
        settle.push({ resolve, reject });
      }),
  );
  return { fetch, settle };
}

describe('a lazy chunk', () => {
  it('is fetched once, by its first subscriber or load, and tells its subscribers when it arrives', async () => {
    const { fetch, settle } = deferredFetch<{ name: string }>();
    const chunk = lazyChunk(fetch);
    expect(fetch).not.toHaveBeenCalled();
    const listener = vi.fn();
    chunk.subscribe(listener);
    const loaded = chunk.load();
    expect(fetch).toHaveBeenCalledTimes(1);
    settle[0]!.resolve({ name: 'renderer' });
    expect(await loaded).toEqual({ name: 'renderer' });
    expect(chunk.current()).toEqual({ module: { name: 'renderer' }, failed: false });
    expect(listener).toHaveBeenCalledTimes(1);
    chunk.subscribe(() => {});
    expect(await chunk.load()).toEqual({ name: 'renderer' });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('says when its fetch failed, stays so while it tries again, and arrives when one succeeds', async () => {
    const { fetch, settle } = deferredFetch<string>();
    const chunk = lazyChunk(fetch);
    const first = chunk.load();
    settle[0]!.reject(new Error('offline'));
    expect(await first).toBeNull();
    expect(chunk.current()).toEqual({ module: null, failed: true });
    // The next subscriber (an answer appearing) tries again.
    chunk.subscribe(() => {});
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(chunk.current().failed).toBe(true);
    settle[1]!.resolve('here');
    expect(await chunk.load()).toBe('here');
    expect(chunk.current()).toEqual({ module: 'here', failed: false });
  });

  it('disposed, disposes what it made, also what arrives afterwards, and tells no one', async () => {
    const made = { dispose: vi.fn() };
    const chunk = lazyChunk(async () => made);
    await chunk.load();
    chunk.dispose();
    expect(made.dispose).toHaveBeenCalledTimes(1);

    const { fetch, settle } = deferredFetch<typeof made>();
    const late = lazyChunk(fetch);
    const listener = vi.fn();
    late.subscribe(listener);
    late.dispose();
    const arriving = { dispose: vi.fn() };
    settle[0]!.resolve(arriving);
    await late.load();
    expect(arriving.dispose).toHaveBeenCalledTimes(1);
    expect(listener).not.toHaveBeenCalled();
    expect(late.current().module).toBeNull();
  });
});

describe('the markdown resources of an app', () => {
  it('keep one chunk per fetch, apart from every other app', async () => {
    const fetch = vi.fn(async () => ({ dispose: vi.fn() }));
    const app = createMarkdownResources();
    const other = createMarkdownResources();
    expect(app.chunk(fetch)).toBe(app.chunk(fetch));
    expect(other.chunk(fetch)).not.toBe(app.chunk(fetch));
    await app.chunk(fetch).load();
    expect(other.chunk(fetch).current().module).toBeNull();
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('dispose every chunk with the app', async () => {
    const app = createMarkdownResources();
    const renderer = await app.chunk(async () => ({ dispose: vi.fn() })).load();
    const math = await app.chunk(async () => ({ dispose: vi.fn() })).load();
    app.dispose();
    expect(renderer?.dispose).toHaveBeenCalledTimes(1);
    expect(math?.dispose).toHaveBeenCalledTimes(1);
  });
});
