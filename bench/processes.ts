import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';

/** The processes a benchmark starts (the server, a simulator), every one ended when it is over. */
export class BenchProcesses {
  private readonly children: ChildProcess[] = [];

  /** Starts `node …args` and resolves once its output matches `ready` (rejects if it exits first). */
  start(args: string[], env: Record<string, string>, ready: RegExp): Promise<ChildProcess> {
    const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: 'pipe' });
    this.children.push(child);
    return new Promise((resolve, reject) => {
      let out = '';
      const look = (chunk: Buffer) => {
        out += chunk.toString();
        if (ready.test(out)) resolve(child);
      };
      child.stdout?.on('data', look);
      child.stderr?.on('data', look);
      child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited (${code}): ${out}`)));
    });
  }

  /** Ends every process started and waits until each has exited. */
  async stopAll(): Promise<void> {
    for (const child of this.children) child.kill('SIGTERM');
    await Promise.all(this.children.map((c) => (c.exitCode === null ? once(c, 'exit') : undefined)));
  }
}

/** The `p`th percentile of `values` (nearest rank); NaN for none. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}
