import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Account, Person } from '../team/account.ts';

/** How this page's copy stands with the server's. */
export type SyncConnection =
  /** Not yet heard from the server since the page opened or the connection came back. */
  | 'connecting'
  /** In step: changes go out as they are made and come in as they are made elsewhere. */
  | 'live'
  /** The server cannot be reached: changes are kept here and sent when it can. */
  | 'offline'
  /** The session ended: nothing is sent until the person signs in again (nothing is lost meanwhile). */
  | 'signed-out';

/** A conversation the server would not keep (too large, say), and its words. */
export interface RefusedWrite {
  id: string;
  reason: string;
}

/** Conversations kept in this browser before the person signed in, offered for their account. */
export type LocalHistory =
  | { state: 'none' }
  | { state: 'offered'; count: number }
  | { state: 'adding'; count: number }
  | { state: 'added'; count: number };

export interface TeamState {
  account: Account;
  connection: SyncConnection;
  /** Changes made here not yet on the server. */
  pending: number;
  refused: RefusedWrite[];
  localHistory: LocalHistory;
  signedIn(account: Account): void;
  /** The server said the session ended (expired, revoked, signed out elsewhere). */
  sessionEnded(): void;
  connected(connection: Exclude<SyncConnection, 'signed-out'>): void;
  pendingChanged(pending: number, refused: RefusedWrite[]): void;
  localHistoryIs(history: LocalHistory): void;
}

export type TeamStore = StoreApi<TeamState>;

/** The signed-in person, if any (never in single-person mode). */
export function personOf(state: Pick<TeamState, 'account'>): Person | null {
  return state.account.mode === 'team' ? state.account.person : null;
}

export function createTeamStore(): TeamStore {
  return createStore<TeamState>()((set) => ({
    account: { mode: 'single' },
    connection: 'connecting',
    pending: 0,
    refused: [],
    localHistory: { state: 'none' },
    signedIn(account) {
      set({ account, connection: 'connecting' });
    },
    sessionEnded() {
      set({ connection: 'signed-out' });
    },
    connected(connection) {
      set((state) => (state.connection === 'signed-out' ? state : { connection }));
    },
    pendingChanged(pending, refused) {
      set((state) =>
        state.pending === pending && state.refused.length === refused.length ? state : { pending, refused },
      );
    },
    localHistoryIs(localHistory) {
      set({ localHistory });
    },
  }));
}
