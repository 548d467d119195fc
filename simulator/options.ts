/** Tunables of one simulator instance. Defaults are the real gateway's values so the demo feels real. */
export interface SimOptions {
  /** Interval of `: hopbase-keepalive` comments while a stream is open. */
  keepaliveMs: number;
  /** Silence after which the gateway gives up on a stalled model (`sim-stall`). */
  stallMs: number;
  /** Time between two streamed deltas. */
  deltaMs: number;
  /** When set, every `/v1` request must carry this key (Bearer or x-api-key). */
  apiKey: string | undefined;
  /** `retry-after` seconds sent with `sim-rate-limit`'s 429. */
  retryAfterS: number;
  /** Larger request bodies are refused with 413. */
  maxBodyBytes: number;
}

function numberFrom(value: string | undefined, fallback: number): number {
  const parsed = value === undefined || value.trim() === '' ? Number.NaN : Number(value);
  return Number.isFinite(parsed) && parsed >= 0 ? parsed : fallback;
}

/** Reads the options from the `HOPBASE_SIM_*` environment variables. */
export function simOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): SimOptions {
  return {
    keepaliveMs: numberFrom(env.HOPBASE_SIM_KEEPALIVE_MS, 10_000),
    stallMs: numberFrom(env.HOPBASE_SIM_STALL_MS, 120_000),
    deltaMs: numberFrom(env.HOPBASE_SIM_DELTA_MS, 30),
    apiKey: env.HOPBASE_SIM_API_KEY || undefined,
    retryAfterS: numberFrom(env.HOPBASE_SIM_RETRY_AFTER_S, 2),
    // The gateway's own cap (HopBase's proxy too): room for a conversation's images.
    maxBodyBytes: 32 * 1024 * 1024,
  };
}
