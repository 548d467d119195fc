import { rm } from 'node:fs/promises';
import { createServerApp, type ServerApp } from '../app.ts';
import { DEFAULT_LIMITS, proxyConfigFromEnv, type ServerConfig } from '../config.ts';
import type { TeamServer } from '../team.ts';
import { onePageDist } from '../testing.ts';
import type { RelaySettings } from './relay.ts';

/** Helpers for the relay's tests: a server to run answers, and a page's reading of the relay stream. */

/** One event of the relay stream, as a page reads it. */
export interface RelayFrame {
  id: number;
  event: 'message' | 'end';
  data: { t?: number; text?: string; outcome?: string; message?: string };
}

/** Splits relay SSE text into its events; comments (keep-alives) are dropped; throws on anything else. */
export function relayFrames(text: string): RelayFrame[] {
  return text
    .split('\n\n')
    .filter((block) => block !== '' && !block.startsWith(':'))
    .map((block) => {
      const match = /^id: (\d+)\n(?:event: (end)\n)?data: ([^\n]*)$/.exec(block);
      if (!match) throw new Error(`malformed relay event: ${JSON.stringify(block)}`);
      return {
        id: Number(match[1]),
        event: match[2] === 'end' ? 'end' : 'message',
        data: JSON.parse(match[3] ?? '') as RelayFrame['data'],
      };
    });
}

/** A page reading a relay stream as it comes: the events so far, and a wait for more. */
export interface StreamReader {
  readonly response: Response;
  readonly frames: RelayFrame[];
  /** Resolves once `count` events have come (or the stream is over); the events so far. */
  until(count: number): Promise<RelayFrame[]>;
  /** Resolves at the stream's end. */
  readonly ended: Promise<RelayFrame[]>;
  /** The page goes away. */
  abort(): void;
}

export async function openStream(url: string, init: RequestInit = {}): Promise<StreamReader> {
  const controller = new AbortController();
  const response = await fetch(url, { ...init, signal: controller.signal });
  const frames: RelayFrame[] = [];
  const waiting: { count: number; resolve: () => void }[] = [];
  let done = false;
  const wake = () => {
    for (const w of [...waiting])
      if (done || frames.length >= w.count) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve();
      }
  };
  const ended = (async () => {
    const reader = response.body?.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (let chunk = await reader?.read(); chunk && !chunk.done; chunk = await reader?.read()) {
        buffer += decoder.decode(chunk.value, { stream: true });
        const cut = buffer.lastIndexOf('\n\n');
        if (cut < 0) continue;
        frames.push(...relayFrames(buffer.slice(0, cut + 2)));
        buffer = buffer.slice(cut + 2);
        wake();
      }
    } catch {
      // Aborted by the test, or cut.
    }
    done = true;
    wake();
    return frames;
  })();
  return {
    response,
    frames,
    until: (count) =>
      new Promise((resolve) => {
        waiting.push({ count, resolve: () => resolve(frames) });
        wake();
      }),
    ended,
    abort: () => controller.abort(),
  };
}

/** The joined texts of the pieces. */
export const textOf = (frames: readonly RelayFrame[]) =>
  frames.map((frame) => frame.data.text ?? '').join('');

export interface RelayServer {
  app: ServerApp;
  url: string;
  close(): Promise<void>;
}

/**
 * The production server (one page of app) with `/v1` proxied to `gatewayUrl` (no key: the simulator
 * needs none) or answered by the built-in simulator, in team mode with `team`.
 */
export async function startRelayServer(
  options: {
    gatewayUrl?: string;
    relay?: Partial<RelaySettings>;
    team?: TeamServer;
    proxy?: Record<string, string>;
    limits?: Partial<ServerConfig['limits']>;
  } = {},
): Promise<RelayServer> {
  const distDir = await onePageDist();
  const app = createServerApp(
    {
      host: '127.0.0.1',
      port: 0,
      distDir,
      proxy: options.gatewayUrl
        ? proxyConfigFromEnv({ HOPBASE_BASE_URL: options.gatewayUrl, ...options.proxy })
        : undefined,
      connectSrc: [],
      allowedHosts: [],
      limits: { ...DEFAULT_LIMITS, ...options.limits },
      relay: options.relay,
    },
    () => {},
    options.team,
  );
  const url = await app.listen();
  return {
    app,
    url,
    close: async () => {
      await app.close();
      await rm(distDir, { recursive: true, force: true });
    },
  };
}

/** The headers of a page asking for a relayed answer. */
export function relayHeaders(
  url: string,
  attemptId: string,
  conversationId = 'conv_1',
): Record<string, string> {
  return {
    'content-type': 'application/json',
    origin: url,
    'sec-fetch-site': 'same-origin',
    'x-hopbase-relay': '1',
    'x-hopbase-conversation': conversationId,
    'x-hopbase-attempt': attemptId,
  };
}
