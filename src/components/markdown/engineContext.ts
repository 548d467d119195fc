import { createContext, useContext } from 'react';
import type { MarkdownEngine } from '../../markdown/engine.ts';

/** The app's markdown engine, given by `Markdown` to the blocks and code blocks it renders. */
export const EngineContext = createContext<MarkdownEngine | null>(null);

export function useEngine(): MarkdownEngine {
  const engine = useContext(EngineContext);
  if (!engine) throw new Error('useEngine must be used inside <Markdown>.');
  return engine;
}
