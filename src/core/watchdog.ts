/**
 * Stall detection for one streaming attempt, as pure functions of an injected clock. Two silences
 * matter and mean different things: the model producing nothing while keepalives still arrive (the
 * connection is fine, the model is slow or stuck), and no bytes at all (the connection itself looks dead).
 */

export interface StallThresholds {
  /** No output for this long (keepalives still arriving): show that the model is silent. */
  silentModelMs: number;
  /** No bytes of any kind for this long: the connection looks dead. More than two missed keepalives. */
  deadConnectionMs: number;
}

export const defaultStallThresholds: StallThresholds = { silentModelMs: 20_000, deadConnectionMs: 25_000 };

export interface WatchState {
  startedAt: number;
  /** Last event that carried output (text, reasoning, tool arguments). */
  lastOutputAt: number | null;
  /** Last bytes of any kind, keepalive comments included. */
  lastByteAt: number | null;
  /** Last keepalive comment. */
  lastKeepaliveAt: number | null;
}

export type StallAssessment =
  | { kind: 'flowing' }
  | { kind: 'model-silent'; silentForMs: number; lastByteAgoMs: number; lastKeepaliveAgoMs: number | null }
  | { kind: 'connection-dead'; silentForMs: number; lastByteAgoMs: number };

export function startWatch(at: number): WatchState {
  return { startedAt: at, lastOutputAt: null, lastByteAt: null, lastKeepaliveAt: null };
}

export function noteBytes(state: WatchState, at: number): WatchState {
  return { ...state, lastByteAt: at };
}

export function noteKeepalive(state: WatchState, at: number): WatchState {
  return { ...state, lastByteAt: at, lastKeepaliveAt: at };
}

export function noteOutput(state: WatchState, at: number): WatchState {
  return { ...state, lastOutputAt: at, lastByteAt: at };
}

export function assessStall(state: WatchState, now: number, thresholds: StallThresholds): StallAssessment {
  const silentForMs = now - (state.lastOutputAt ?? state.startedAt);
  const lastByteAgoMs = now - (state.lastByteAt ?? state.startedAt);
  if (lastByteAgoMs >= thresholds.deadConnectionMs)
    return { kind: 'connection-dead', silentForMs, lastByteAgoMs };
  if (silentForMs >= thresholds.silentModelMs) {
    const lastKeepaliveAgoMs = state.lastKeepaliveAt === null ? null : now - state.lastKeepaliveAt;
    return { kind: 'model-silent', silentForMs, lastByteAgoMs, lastKeepaliveAgoMs };
  }
  return { kind: 'flowing' };
}
