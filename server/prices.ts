import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sameOriginOnly, sendJson } from '../simulator/http.ts';
import { type PriceTable, readPriceTable, skippedInWords } from '../src/core/prices.ts';
import { ConfigError } from './config.ts';

/**
 * The price table the page prices answers with (`GET /api/prices`, LiteLLM's format): the operator's
 * `HOPBASE_PRICES` file, else, on the built-in simulator, the simulator's own prices; else none.
 */
export const PRICES_PATH = '/api/prices';

/** The simulator's table, beside its code (the build copies it into dist-server/simulator/). */
const SIMULATOR_PRICES = new URL('../simulator/prices.json', import.meta.url);

/**
 * Reads the table once, at start. A file that cannot be read or is no JSON object stops the server
 * (ConfigError); an entry that is wrong is left out, and the log says which and why.
 */
export function pricesFromEnv(
  env: NodeJS.ProcessEnv,
  simulated: boolean,
  log: (line: string) => void,
): PriceTable {
  const path = env.HOPBASE_PRICES?.trim();
  if (!path && !simulated) return {};
  const name = path ? `HOPBASE_PRICES (${path})` : 'The simulator’s prices (simulator/prices.json)';
  let text: string;
  try {
    text = readFileSync(path || SIMULATOR_PRICES, 'utf8');
  } catch (error) {
    throw new ConfigError(`${name} cannot be read (${(error as NodeJS.ErrnoException).code}).`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${name} is not JSON (${(error as Error).message}).`);
  }
  const read = readPriceTable(json);
  if (!read) {
    throw new ConfigError(`${name} is not a JSON object of models (LiteLLM's format).`);
  }
  if (read.skipped.length > 0) {
    const shown = read.skipped.slice(0, 10).map(skippedInWords);
    const more = read.skipped.length > 10 ? `; and ${read.skipped.length - 10} more` : '';
    log(
      `${name}: ${read.skipped.length} ${read.skipped.length === 1 ? 'entry' : 'entries'} left out (${shown.join('; ')}${more}).`,
    );
  }
  return read.table;
}

/** `GET /api/prices` for the app's own pages: the table as JSON, revalidated on each load. */
export function servePrices(req: IncomingMessage, res: ServerResponse, body: string): void {
  if (!sameOriginOnly(req, res)) return;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    sendJson(res, 405, { error: `${req.method} ${PRICES_PATH} is not allowed: use GET.` }, { allow: 'GET' });
    return;
  }
  res.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-cache',
    'content-length': Buffer.byteLength(body),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}
