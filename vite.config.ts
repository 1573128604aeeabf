import { fileURLToPath } from 'node:url';
import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vitest/config';
import { berthDevServer } from './src/lib/server/dev-plugin.ts';

export default defineConfig({
  plugins: [sveltekit(), berthDevServer()],
  // Bundled rather than loaded from node_modules: their deep `export *` chains cost ~150 MB of
  // transient heap and ~400 ms when Node links them at start; the bundler resolves them once.
  // docker-modem is bundled so that its `ssh2`, which Berth never uses, can be left out.
  ssr: { noExternal: ['drizzle-orm', 'zod', '@trpc/server', 'docker-modem'] },
  resolve: {
    alias: { ssh2: fileURLToPath(new URL('src/lib/server/engine/no-ssh.ts', import.meta.url)) }
  },
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
