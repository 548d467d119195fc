import { defineConfig } from '@playwright/test';
import { serveKey, servePort, serveUrl, simPort, simUrl } from './e2e/serve.ts';

const port = Number(process.env.E2E_PORT ?? 4317);
// Where the app is built for the run: runs side by side (E2E_PORT and E2E_DIST set apart) do not collide.
const outDir = process.env.E2E_DIST ?? 'dist';

// Debian's Chromium: Playwright cannot download its own browser here.
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  // Room for a loaded 2-core machine: axe on a long page and the longest journeys take a minute there.
  timeout: 90_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  // Started one after another, in this order: the production server serves the dist/ built by the first.
  webServer: [
    {
      // The production build served with the simulator behind /v1, on fast timings so faults show in seconds.
      command: `npx vite build --logLevel warn --outDir ${outDir} --emptyOutDir && npx vite preview --outDir ${outDir} --host 127.0.0.1 --port ${port} --strictPort`,
      url: `http://127.0.0.1:${port}/v1/models`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        PORT: String(port),
        HOPBASE_SIM_KEEPALIVE_MS: '400',
        HOPBASE_SIM_STALL_MS: '8000',
        HOPBASE_SIM_DELTA_MS: '8',
        // Long enough that a test reliably sees the countdown; e2e/faults.spec.ts assumes 5 s.
        HOPBASE_SIM_RETRY_AFTER_S: '5',
      },
    },
    {
      // The gateway of the production-server journey (e2e/serve.spec.ts): a simulator that requires a key.
      command: 'npx tsx simulator/main.ts',
      url: `${simUrl}/__sim/status`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        HOPBASE_SIM_PORT: String(simPort),
        HOPBASE_SIM_HOST: '127.0.0.1',
        HOPBASE_SIM_API_KEY: serveKey,
        HOPBASE_SIM_DELTA_MS: '8',
        HOPBASE_SIM_KEEPALIVE_MS: '400',
      },
    },
    {
      // `npm run serve` as deployed: the built app and the /v1 proxy adding the key on the server side.
      command: 'npm run build:server --silent && npm run serve --silent',
      url: `${serveUrl}/healthz`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        HOST: '127.0.0.1',
        PORT: String(servePort),
        HOPBASE_BASE_URL: `${simUrl}/v1`,
        HOPBASE_API_KEY: serveKey,
        // The simulator's origin is allowed for direct-to-gateway mode; http://localhost:<port> is not.
        HOPBASE_CONNECT_SRC: simUrl,
        HOPBASE_DIST_DIR: outDir,
      },
    },
  ],
});
