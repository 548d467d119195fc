import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadLocaleData } from './localeData.ts';

describe('loadLocaleData', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('loads the locale data in a task after the calling one, not in it', async () => {
    const load = vi.spyOn(Intl.NumberFormat, 'supportedLocalesOf');
    const done = loadLocaleData();
    await Promise.resolve();
    expect(load).not.toHaveBeenCalled();
    await done;
    expect(load).toHaveBeenCalledTimes(1);
  });
});
