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

/** What a test's downloads were: the blobs given to `URL.createObjectURL`, the file names clicked. */
export interface Downloads {
  blobs: Blob[];
  names: string[];
}

/**
 * jsdom has neither object URLs nor navigation: this captures each download (a link clicked with
 * `download` set) instead. Undone by `vi.restoreAllMocks()`, but for the object URL functions, which every
 * test that downloads sets again.
 */
export function captureDownloads(): Downloads {
  const captured: Downloads = { blobs: [], names: [] };
  fakeObjectUrls();
  const made = URL.createObjectURL;
  URL.createObjectURL = (blob: Blob) => {
    captured.blobs.push(blob);
    return made(blob);
  };
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    captured.names.push(this.download);
  });
  return captured;
}
