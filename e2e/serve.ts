/**
 * The production-server journey (e2e/serve.spec.ts) runs against `npm run serve` (built app, server
 * compiled to dist-server/) proxying to a standalone simulator that requires this key. Shared by
 * playwright.config.ts, which starts both, and the spec, which checks the page never sees the key.
 */
const base = Number(process.env.E2E_PORT ?? 4317);

export const simPort = base + 1;
export const servePort = base + 2;
export const simUrl = `http://127.0.0.1:${simPort}`;
export const serveUrl = `http://127.0.0.1:${servePort}`;
export const serveKey = 'sk-hopbase-e2e-5c0f2b7d9e1a4c38-do-not-leak';
