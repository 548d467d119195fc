/**
 * Which server the UI benchmark loads the built app from (`BENCH_UI_SERVER`), all on 127.0.0.1:
 *   own      bench/ui/server.ts: plain files, no compression, no cache headers, `/v1` answered itself
 *   preview  `vite preview` of the same build (the project's vite.config.ts: gzip on the fly, `no-cache`
 *            and an ETag on every file), `/v1` proxied by the project's plugin to the pacing server
 *   serve    the production server (`npm run build:server`, then `node dist-server/server/main.js`): the
 *            build's precompressed `.br`/`.gz`, immutable assets, `no-cache` + ETag on `index.html`, the
 *            security headers, `/v1` through server/proxy.ts to the pacing server
 * The answers always come from the pacing server (bench/ui/server.ts); under preview and serve the
 * reference page is copied into the build (`/reference/`) so that both contenders load from the same
 * server and stream through the same hop.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { cpSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

export type ServerKind = 'own' | 'preview' | 'serve';

export const SERVER_KINDS: readonly ServerKind[] = ['own', 'preview', 'serve'];

export interface AppServer {
  kind: ServerKind;
  url: string;
  /** One line for the results: the server and its version. */
  describe: string;
  close(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Resolves once `url` answers (any status), or fails after 60 s or when the process exits. */
async function ready(child: ChildProcess, url: string, log: () => string): Promise<void> {
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${log()}`);
    try {
      await fetch(url);
      return;
    } catch {
      if (Date.now() - started > 60_000) throw new Error(`the server never answered:\n${log()}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

async function child(
  root: string,
  command: string,
  args: string[],
  env: Record<string, string>,
  url: string,
): Promise<ChildProcess> {
  const proc = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: 'pipe' });
  let output = '';
  proc.stdout?.on('data', (d) => {
    output += d;
  });
  proc.stderr?.on('data', (d) => {
    output += d;
  });
  await ready(proc, url, () => output);
  return proc;
}

function stop(proc: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (proc.exitCode !== null) return resolve();
    proc.once('exit', () => resolve());
    proc.kill('SIGTERM');
  });
}

const version = (root: string, pkg: string) =>
  (
    JSON.parse(readFileSync(path.join(root, 'node_modules', pkg, 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;

/**
 * Starts the chosen server for `appDir` (`referenceDir` beside it at `/reference/`); `pacingUrl` is the
 * pacing server (which also is the `own` server).
 */
export async function startAppServer(
  kind: ServerKind,
  root: string,
  appDir: string,
  referenceDir: string,
  pacingUrl: string,
): Promise<AppServer> {
  if (kind === 'own')
    return {
      kind,
      url: pacingUrl,
      describe: 'own (bench/ui/server.ts: no compression, no cache headers)',
      close: async () => {},
    };
  cpSync(referenceDir, path.join(appDir, 'reference'), { recursive: true });
  const gateway = { HOPBASE_BASE_URL: `${pacingUrl}/v1` };
  if (kind === 'preview') {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const proc = await child(
      root,
      process.execPath,
      [
        path.join(root, 'node_modules/vite/bin/vite.js'),
        'preview',
        '--outDir',
        appDir,
        '--host',
        '127.0.0.1',
        '--port',
        String(port),
        '--strictPort',
      ],
      gateway,
      url,
    );
    return {
      kind,
      url,
      describe: `preview (vite ${version(root, 'vite')} \`vite preview\`, /v1 proxied to the pacing server)`,
      close: () => stop(proc),
    };
  }
  const server = await startProductionServer(root, appDir, gateway);
  return {
    kind,
    ...server,
    describe: 'serve (`node dist-server/server/main.js`, precompressed, /v1 proxied to the pacing server)',
  };
}

/**
 * The production server as `npm run build:server` builds it (its precompression run on `appDir`), serving
 * `appDir` on a port of its own with `env` (team mode's `HOPBASE_AUTH`, `HOPBASE_DATA_DIR`…).
 */
export async function startProductionServer(
  root: string,
  appDir: string,
  env: Record<string, string>,
): Promise<{ url: string; close(): Promise<void> }> {
  execFileSync('npm', ['run', '--silent', 'build:server'], {
    cwd: root,
    env: { ...process.env, HOPBASE_DIST_DIR: appDir },
    stdio: 'inherit',
  });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const proc = await child(
    root,
    process.execPath,
    [path.join(root, 'dist-server/server/main.js')],
    { ...env, HOST: '127.0.0.1', PORT: String(port), HOPBASE_DIST_DIR: appDir },
    `${url}/healthz`,
  );
  return { url, close: () => stop(proc) };
}
