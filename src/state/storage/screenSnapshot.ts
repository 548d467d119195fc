import * as v from 'valibot';

/**
 * What a page leaves behind when it is hidden, for its next load to paint before any of the app's code
 * has run (single-person mode only): the app's markup as it was on screen, cut to the last screenful of the
 * conversation. Kept in localStorage, the one storage a classic script reads synchronously.
 */
export interface ScreenSnapshot {
  /** The address it shows (path and query): another address shows nothing of it. */
  address: string;
  /** The `src` of the page's main script: a snapshot of another build is not shown. */
  build: string;
  /** The page's language (`<html lang>`). */
  lang: string;
  /** The stylesheets the page had loaded since it started (the renderer's), by their `href`. */
  stylesheets: string[];
  /** The app's markup; `style` attributes are carried as `data-snapshot-style` (see `restoreFirstScreen`). */
  html: string;
}

const SNAPSHOT_KEY = 'hopbase:screen-snapshot';

/** Past this many characters a snapshot is not kept: reading it would cost the first paint more than it gains. */
export const SNAPSHOT_LIMIT = 400_000;

const schema = v.object({
  address: v.string(),
  build: v.string(),
  lang: v.string(),
  stylesheets: v.array(v.string()),
  html: v.pipe(v.string(), v.maxLength(SNAPSHOT_LIMIT)),
});

type SnapshotStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** The snapshot kept, or null (none, unreadable, or not one of ours). */
export function readScreenSnapshot(storage: SnapshotStorage): ScreenSnapshot | null {
  const raw = storage.getItem(SNAPSHOT_KEY);
  if (raw === null) return null;
  try {
    const parsed = v.safeParse(schema, JSON.parse(raw));
    return parsed.success ? parsed.output : null;
  } catch {
    return null;
  }
}

/** Keeps `snapshot` in place of the last one; one over the limit, or one the storage refuses, leaves none. */
export function keepScreenSnapshot(storage: SnapshotStorage, snapshot: ScreenSnapshot): boolean {
  if (snapshot.html.length > SNAPSHOT_LIMIT) {
    forgetScreenSnapshot(storage);
    return false;
  }
  try {
    storage.setItem(SNAPSHOT_KEY, JSON.stringify(snapshot));
    return true;
  } catch {
    // Full: a stale snapshot must not stay behind in its place.
    forgetScreenSnapshot(storage);
    return false;
  }
}

/** This browser's localStorage, or null where it is refused (a browser blocking the site's data throws). */
export function localStorageHere(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

export function forgetScreenSnapshot(storage: SnapshotStorage): void {
  storage.removeItem(SNAPSHOT_KEY);
}
