import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 4317);

// Debian's Chromium: Playwright cannot download its own browser here.
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  timeout: 60_000,
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
  webServer: {
    // The production build served with the simulator behind /v1, on fast timings so faults show in seconds.
    command: `npx vite build --logLevel warn && npx vite preview --host 127.0.0.1 --port ${port} --strictPort`,
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
});
