import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

/**
 * Writes `file.br` and `file.gz` beside every compressible file of the build, at the highest levels:
 * done once at build time, so the server sends brotli without spending CPU per request (it serves
 * the variant the browser accepts, and compresses on the fly only what has none).
 */

const COMPRESSIBLE = new Set([
  '.js',
  '.mjs',
  '.css',
  '.html',
  '.svg',
  '.json',
  '.txt',
  '.map',
  '.xml',
  '.wasm',
]);
const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export interface Compressed {
  file: string;
  size: number;
  br?: number;
  gz?: number;
}

async function* files(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.isFile()) yield path;
  }
}

export async function precompress(dir: string, minBytes = 1024): Promise<Compressed[]> {
  const done: Compressed[] = [];
  for await (const file of files(dir)) {
    if (!COMPRESSIBLE.has(extname(file))) continue;
    const { size } = await stat(file);
    if (size < minBytes) continue;
    const data = await readFile(file);
    const br = await brotli(data, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: size },
    });
    const gz = await gzipAsync(data, { level: 9 });
    const result: Compressed = { file, size };
    // A variant that saves nothing is not written: the original is served instead.
    if (br.length < size) {
      await writeFile(`${file}.br`, br);
      result.br = br.length;
    }
    if (gz.length < size) {
      await writeFile(`${file}.gz`, gz);
      result.gz = gz.length;
    }
    done.push(result);
  }
  return done;
}

// `node dist-server/server/precompress.js [dir]` (part of `npm run build`).
if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const dir = resolve(process.argv[2] ?? (process.env.HOPBASE_DIST_DIR?.trim() || 'dist'));
  const done = await precompress(dir);
  const before = done.reduce((sum, f) => sum + f.size, 0);
  const after = done.reduce((sum, f) => sum + (f.br ?? f.size), 0);
  console.log(`precompressed ${done.length} files in ${dir}: ${before} bytes, ${after} as brotli`);
}
