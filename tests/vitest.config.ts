import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import BuildLastSequencer from './support/sequencer.js';

const root = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  root,
  resolve: { alias: { '@': root } },
  test: {
    include: ['tests/**/*.test.ts'],
    // The fault and deployment tests run on their own, once: tests/faults/vitest.config.ts, tests/deploy/vitest.config.ts.
    exclude: ['tests/bench/**', 'tests/faults/**', 'tests/deploy/**', 'node_modules/**'],
    globalSetup: ['tests/support/global-setup.ts'],
    setupFiles: ['tests/support/database.ts', 'tests/support/data-dir.ts'],
    pool: 'forks',
    sequence: { sequencer: BuildLastSequencer },
    // Three workers on two cores: much of a file's time is spent waiting on servers and child processes.
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
