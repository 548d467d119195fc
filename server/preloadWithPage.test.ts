import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type Rollup } from 'vite';
import { afterEach, describe, expect, it } from 'vitest';
import { preloadWithPage } from './preloadWithPage.ts';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A real build of a page whose entry module is `entry` (which imports `late.js`), and its built page. */
async function builtPage(entry: string, modules: string[]): Promise<string> {
  const root = mkdtempSync(join(tmpdir(), 'preload-with-page-'));
  roots.push(root);
  writeFileSync(
    join(root, 'index.html'),
    '<!doctype html><html><head></head><body><script type="module" src="/main.js"></script></body></html>',
  );
  writeFileSync(join(root, 'main.js'), entry);
  writeFileSync(join(root, 'late.js'), 'export const late = () => document.title;');
  const output = (await build({
    root,
    configFile: false,
    logLevel: 'silent',
    plugins: [preloadWithPage(modules)],
    build: { write: false },
  })) as Rollup.RollupOutput;
  const page = output.output.find((file) => file.fileName === 'index.html');
  return page?.type === 'asset' ? String(page.source) : '';
}

const lateChunk = (page: string) =>
  /<link rel="modulepreload" crossorigin href="(\/assets\/late-[^"]+\.js)">/.exec(page)?.[1];

describe('preloadWithPage', () => {
  it('preloads a dynamically imported module with the page', async () => {
    const page = await builtPage("import('./late.js').then(({ late }) => late());", ['/late.js']);
    expect(lateChunk(page)).toMatch(/^\/assets\/late-.+\.js$/);
  });

  it('leaves out what it is not asked for', async () => {
    const page = await builtPage("import('./late.js').then(({ late }) => late());", []);
    expect(page).toContain('<script type="module"');
    expect(lateChunk(page)).toBeUndefined();
  });

  it('fails the build when the module is no longer a dynamic chunk of its own', async () => {
    await expect(builtPage("import { late } from './late.js';\nlate();", ['/late.js'])).rejects.toThrow(
      'no dynamic chunk of its own for /late.js',
    );
  });
});
