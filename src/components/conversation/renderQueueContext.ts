import { createContext } from 'react';
import type { RenderQueue } from './renderQueue.ts';

/** The conversation pane's queue for rendering finished answers as they come near; none: render at once. */
export const RenderQueueContext = createContext<RenderQueue | null>(null);
