import { useSyncExternalStore } from 'react';
import type { ChunkState, LazyChunk } from '../../markdown/lazyChunk.ts';
import type { MathRenderer } from '../../markdown/processor.ts';

const unsubscribed = () => {};
const noSubscription = () => unsubscribed;
const idle: ChunkState<MathRenderer> = { module: null, failed: false };
const nothing = () => idle;

/** KaTeX's state, where a block `needed` it; else nothing, and no render again when it arrives. */
function useMathState(math: LazyChunk<MathRenderer>, needed: boolean): ChunkState<MathRenderer> {
  return useSyncExternalStore(
    needed ? math.subscribe : noSubscription,
    needed ? math.current : nothing,
    needed ? math.current : nothing,
  );
}

/**
 * KaTeX for a block that has formulas (`needed`): null until it has arrived, meanwhile their TeX shows. A
 * block without formulas neither fetches it nor renders again when it arrives.
 */
export function useMathRenderer(math: LazyChunk<MathRenderer>, needed: boolean): MathRenderer | null {
  return useMathState(math, needed).module;
}

/** Whether KaTeX, `needed`, is still on its way (not here, and its fetch has not failed). */
export function useMathPending(math: LazyChunk<MathRenderer>, needed: boolean): boolean {
  const { module, failed } = useMathState(math, needed);
  return needed && module === null && !failed;
}
