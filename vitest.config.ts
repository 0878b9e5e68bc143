import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  resolve: {
    alias: {
      '~': fileURLToPath(new URL('./app', import.meta.url)),
      '#db': fileURLToPath(new URL('./db', import.meta.url)),
    },
  },
  test: {
    include: ['app/**/*.test.{ts,tsx}', 'db/**/*.test.ts', 'scripts/**/*.test.ts', 'tests/**/*.test.{ts,tsx}'],
    exclude: ['tests/e2e/**', 'node_modules/**'],
    setupFiles: ['./tests/setup/setup-test-env.ts'],
    globalSetup: ['./tests/setup/global-setup.ts'],
    pool: 'forks',
    // Two workers (Vitest's default on two cores is one), and each keeps its modules from one test
    // file to the next instead of starting a process per file: most of a file's time was importing.
    // Each file still gets its own database copy and its own environment (setup-test-env.ts), and
    // no suite replaces a module with vi.mock, which a shared module graph would leak (decision 107).
    maxWorkers: 2,
    minWorkers: 1,
    poolOptions: { forks: { isolate: false } },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
