import { vi } from 'vitest';

/**
 * jsdom has no object URLs: this puts in ones that are counted, `made` (`blob:test/0`, `blob:test/1`, …)
 * and `revoked` (each one let go), for a test to check that every one made is let go.
 */
export function fakeObjectUrls(): { made: string[]; revoked: string[] } {
  const made: string[] = [];
  const revoked: string[] = [];
  URL.createObjectURL = vi.fn(() => {
    made.push(`blob:test/${made.length}`);
    return made.at(-1)!;
  });
  URL.revokeObjectURL = vi.fn((url: string) => void revoked.push(url));
  return { made, revoked };
}
