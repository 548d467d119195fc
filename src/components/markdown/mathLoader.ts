import { useSyncExternalStore } from 'react';

export type MathRenderer = typeof import('./mathRenderer.ts');

// KaTeX is fetched when the first formula is shown, as the markdown renderer is when the first answer is.
interface MathState {
  renderer: MathRenderer | null;
  /** The last fetch failed: formulas stay as TeX (the next one to appear tries again). */
  failed: boolean;
}

let state: MathState = { renderer: null, failed: false };
let loading = false;
const listeners = new Set<() => void>();

function set(next: MathState): void {
  state = next;
  for (const listener of listeners) listener();
}

function load(): void {
  if (loading) return;
  loading = true;
  import('./mathRenderer.ts').then(
    (module) => set({ renderer: module, failed: false }),
    () => {
      // Offline, or a deploy removed the chunk.
      loading = false;
      set({ renderer: null, failed: true });
    },
  );
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!state.renderer) load();
  return () => listeners.delete(listener);
}

const unsubscribed = () => {};
const noSubscription = () => unsubscribed;
const current = () => state;
const idle: MathState = { renderer: null, failed: false };
const nothing = () => idle;

function useMathState(needed: boolean): MathState {
  return useSyncExternalStore(
    needed ? subscribe : noSubscription,
    needed ? current : nothing,
    needed ? current : nothing,
  );
}

/**
 * KaTeX for a block that has formulas (`needed`): null until it has arrived, meanwhile their TeX shows. A
 * block without formulas neither fetches it nor renders again when it arrives.
 */
export function useMathRenderer(needed: boolean): MathRenderer | null {
  return useMathState(needed).renderer;
}

/** Whether KaTeX, `needed`, is still on its way (not here, and its fetch has not failed). */
export function useMathPending(needed: boolean): boolean {
  const { renderer, failed } = useMathState(needed);
  return needed && renderer === null && !failed;
}
