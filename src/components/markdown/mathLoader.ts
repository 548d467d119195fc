import { useSyncExternalStore } from 'react';

export type MathRenderer = typeof import('./mathRenderer.ts');

// KaTeX is fetched when the first formula is shown, as the markdown renderer is when the first answer is.
let renderer: MathRenderer | null = null;
let loading = false;
const listeners = new Set<() => void>();

function load(): void {
  if (loading) return;
  loading = true;
  import('./mathRenderer.ts').then(
    (module) => {
      renderer = module;
      for (const listener of listeners) listener();
    },
    () => {
      // Offline, or a deploy removed the chunk: formulas stay as TeX, and the next one to appear tries again.
      loading = false;
    },
  );
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!renderer) load();
  return () => listeners.delete(listener);
}

const unsubscribed = () => {};
const noSubscription = () => unsubscribed;
const current = () => renderer;
const nothing = () => null;

/**
 * KaTeX for a block that has formulas (`needed`): null until it has arrived, meanwhile their TeX shows. A
 * block without formulas neither fetches it nor renders again when it arrives.
 */
export function useMathRenderer(needed: boolean): MathRenderer | null {
  return useSyncExternalStore(
    needed ? subscribe : noSubscription,
    needed ? current : nothing,
    needed ? current : nothing,
  );
}
