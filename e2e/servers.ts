import { type ChildProcess, spawn } from 'node:child_process';
import { serveKey, simUrl } from './serve.ts';

/**
 * A production server (`npm run serve`, built by playwright.config.ts) in a process of its own, proxying
 * `/v1` to the browser tests' simulator with the operator's key, as deployed; `env` adds to that.
 */
export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** What the process printed, for a failure's message. */
  log: string[];
  /** Ends the process (SIGKILL: as a crash ends it) and resolves once it has exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export function spawnServer(port: number, env: Record<string, string>, log: string[] = []): ServerProcess {
  const child = spawn(process.execPath, ['dist-server/server/main.js'], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      HOPBASE_BASE_URL: `${simUrl}/v1`,
      HOPBASE_API_KEY: serveKey,
      HOPBASE_DIST_DIR: process.env.E2E_DIST ?? 'dist',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => log.push(`[${port}] ${chunk.toString()}`);
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    log,
    stop: (signal = 'SIGTERM') =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      }),
  };
}

/** Resolves once the server answers (one that exits first rejects, with what it said). */
export async function serverReady({ url, child, log }: ServerProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server for ${url} exited:\n${log.join('')}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
