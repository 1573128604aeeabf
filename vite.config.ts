import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vitest/config';
import { berthDevServer } from './src/lib/server/dev-plugin.ts';

export default defineConfig({
  plugins: [sveltekit(), berthDevServer()],
  // Bundled rather than loaded from node_modules: their deep `export *` chains cost ~150 MB of
  // transient heap and ~400 ms when Node links them at start; the bundler resolves them once.
  ssr: { noExternal: ['drizzle-orm', 'zod', '@trpc/server'] },
  test: {
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['src/**/*.test.ts'], environment: 'node' }
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          fileParallelism: false
        }
      }
    ]
  }
});
