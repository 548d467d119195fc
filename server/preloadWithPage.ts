import type { HtmlTagDescriptor, IndexHtmlTransformContext, Plugin } from 'vite';

/**
 * Modules the app imports dynamically but needs for its first screen, fetched with the page's own modules
 * (a `modulepreload` link each in the built page) rather than only once the code asking for them runs.
 * `modules` are the end of each module's path, as in `node_modules/react-dom/client.js`; a build where one
 * is no longer a dynamic chunk of its own fails, rather than quietly fetching it late.
 */
export function preloadWithPage(modules: readonly string[]): Plugin {
  let base = '/';
  return {
    name: 'hopbase-preload-with-page',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler: (_html, context) => modules.map((module) => preloadLink(base + chunkOf(module, context))),
    },
  };
}

function chunkOf(module: string, { bundle }: IndexHtmlTransformContext): string {
  const chunk = Object.values(bundle ?? {}).find(
    (output) => output.type === 'chunk' && output.isDynamicEntry && output.facadeModuleId?.endsWith(module),
  );
  if (!chunk) throw new Error(`preloadWithPage: no dynamic chunk of its own for ${module}`);
  return chunk.fileName;
}

function preloadLink(href: string): HtmlTagDescriptor {
  return {
    tag: 'link',
    attrs: { rel: 'modulepreload', crossorigin: true, href },
    injectTo: 'head',
  };
}
