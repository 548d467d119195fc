import { createStore, type StoreApi } from 'zustand/vanilla';
import { newId } from '../domain/ids.ts';
import type { ConversationChoices } from '../domain/types.ts';

/** One column of the comparison: the protocol, model and reasoning level its answers are asked with. */
export interface CompareColumn {
  id: string;
  choices: ConversationChoices;
}

/** One prompt sent to every column: each column's answer (a branch of the conversation) and what asked it. */
export interface CompareRound {
  conversationId: string;
  /** The person's message the columns answer. */
  promptId: string;
  /** By column id: a column added later has none, a column removed is left out. */
  answers: Readonly<Record<string, { messageId: string; choices: ConversationChoices }>>;
}

export const maxCompareColumns = 4;

/**
 * The comparison's columns and its latest round, for this page only: a reload starts without them (every
 * answer stays recorded in its conversation). Changed through these actions only.
 */
export interface CompareState {
  open: boolean;
  columns: readonly CompareColumn[];
  round: CompareRound | null;
  /** Opens the comparison; the first time, with two columns asking as `choices` does. */
  show(choices: ConversationChoices): void;
  hide(): void;
  /** A column asking as `choices` does, up to `maxCompareColumns`. */
  addColumn(choices: ConversationChoices): void;
  /** Removes a column (the last one stays). */
  removeColumn(id: string): void;
  setColumn(id: string, patch: Partial<ConversationChoices>): void;
  startRound(round: CompareRound): void;
}

export type CompareStore = StoreApi<CompareState>;

const column = (choices: ConversationChoices): CompareColumn => ({ id: newId('col'), choices });

export function createCompareStore(): CompareStore {
  return createStore<CompareState>()((set) => ({
    open: false,
    columns: [],
    round: null,
    show(choices) {
      set((state) => ({
        open: true,
        columns: state.columns.length > 0 ? state.columns : [column(choices), column(choices)],
      }));
    },
    hide() {
      set({ open: false });
    },
    addColumn(choices) {
      set((state) =>
        state.columns.length >= maxCompareColumns ? state : { columns: [...state.columns, column(choices)] },
      );
    },
    removeColumn(id) {
      set((state) =>
        state.columns.length <= 1 ? state : { columns: state.columns.filter((c) => c.id !== id) },
      );
    },
    setColumn(id, patch) {
      set((state) => ({
        columns: state.columns.map((c) => (c.id === id ? { ...c, choices: { ...c.choices, ...patch } } : c)),
      }));
    },
    startRound(round) {
      set({ round });
    },
  }));
}
