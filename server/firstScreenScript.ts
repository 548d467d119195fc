import { resolve } from 'node:path';
import { build } from 'esbuild';
import type { Plugin } from 'vite';

/**
 * The production build's script that paints the page's last screen before the app's code runs
 * (src/app/firstScreen/restoreMain.ts): inline right after `#root`, so the parser runs it as soon as the
 * stylesheet is there, before the first paint. Bundled on its own (esbuild, which Vite itself depends on):
 * Vite joins an HTML file's module scripts into its one entry. The app's module script is made `async`,
 * so that it runs once its modules are loaded, not after this parser-blocking script and the frame it
 * paints. The dev server has none: its styles come with its scripts, a snapshot would paint unstyled.
 */
export function firstScreenScript(): Plugin {
  let root = '';
  let code = '';
  return {
    name: 'hopbase-first-screen',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    async buildStart() {
      const { outputFiles } = await build({
        entryPoints: [resolve(root, 'src/app/firstScreen/restoreMain.ts')],
        bundle: true,
        format: 'iife',
        minify: true,
        target: 'es2022',
        write: false,
      });
      code = outputFiles[0]!.text.trim();
    },
    // Inline: a file would be one more request, queued behind the module scripts' dozen. The production
    // server allows it by its hash (`inlineScriptHashes`).
    transformIndexHtml: {
      order: 'post',
      handler: (html) => ({
        html: asyncEntry(html),
        tags: [{ tag: 'script', children: code, injectTo: 'body' }],
      }),
    },
  };
}

/** The page with its entry module script made `async`; a build whose page has no such script fails. */
function asyncEntry(html: string): string {
  const entry = '<script type="module" crossorigin';
  if (!html.includes(entry)) throw new Error(`firstScreenScript: no ${entry}> in the page`);
  return html.replace(entry, '<script type="module" async crossorigin');
}
