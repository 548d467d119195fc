import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { firstScreenScript } from './server/firstScreenScript.ts';
import { preloadWithPage } from './server/preloadWithPage.ts';
import { hopbaseGateway } from './server/vite-plugin.ts';
import { precompiledMessages } from './src/i18n/precompileMessages.ts';

// The dev and preview servers answer `/v1` themselves: with the simulator by default,
// or by proxying to a real gateway when HOPBASE_BASE_URL is set.
export default defineConfig({
  plugins: [
    react(),
    hopbaseGateway(),
    precompiledMessages(),
    firstScreenScript(),
    // Imported by `src/app/main.tsx` for the first screen, in a task of its own.
    preloadWithPage(['node_modules/react-dom/client.js']),
  ],
  // Never inline an asset as a data: URL: the page's CSP loads fonts and images from 'self' only (a KaTeX
  // font under 4 kB was inlined and would have been refused).
  build: { assetsInlineLimit: 0 },
  server: { port: Number(process.env.PORT ?? 5173), strictPort: true },
  preview: { port: Number(process.env.PORT ?? 4173), strictPort: true },
  test: {
    // A loaded 2-core CI machine: the same room as the DOM tests' waits (src/testing/setup.ts).
    testTimeout: 20_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'src/core/**/*.test.ts',
            'src/markdown/**/*.test.ts',
            'src/i18n/**/*.test.ts',
            'simulator/**/*.test.ts',
            'server/**/*.test.ts',
          ],
        },
      },
      {
        extends: true,
        test: {
          name: 'dom',
          environment: 'jsdom',
          include: ['src/{state,session,hooks,components,app}/**/*.test.{ts,tsx}', 'src/i18n/**/*.test.tsx'],
          setupFiles: ['src/testing/setup.ts'],
        },
      },
    ],
  },
});
