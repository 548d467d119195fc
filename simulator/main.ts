import { startSimulator } from './server.ts';

// Standalone simulator for browser tests and other clients: `npm run simulator`.
const port = Number(process.env.HOPBASE_SIM_PORT ?? 8787);
const host = process.env.HOPBASE_SIM_HOST ?? '127.0.0.1';
const running = await startSimulator({ port, host });
const { keepaliveMs, stallMs, deltaMs, apiKey } = running.simulator.options;
console.log(`HopBase simulator listening on ${running.url}/v1`);
console.log(
  `  keepalive ${keepaliveMs} ms, stall ${stallMs} ms, delta ${deltaMs} ms, key ${apiKey ? 'required' : 'not required'}`,
);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void running.close().then(() => process.exit(0));
  });
}
