import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { HOOK_TIMEOUT_MS, PATIENCE_MS, TEST_TIMEOUT_MS } from './support/patience.js';
import RunReport from './support/run-report.js';
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
    setupFiles: ['tests/support/fresh-modules.ts', 'tests/support/cpu-use.ts', 'tests/support/database.ts', 'tests/support/data-dir.ts'],
    pool: 'forks',
    // A worker's files share its process, each with the app's modules afresh: tests/support/fresh-modules.ts.
    isolate: false,
    sequence: { sequencer: BuildLastSequencer },
    // After Vitest's summary: the load during the run and the slowest files' import, setup and tests.
    reporters: ['default', new RunReport()],
    // Three workers on two cores: much of a file's time is spent waiting on servers and child processes.
    maxWorkers: 3,
    // Bounds for a busy machine, not aims: tests/support/patience.ts.
    testTimeout: TEST_TIMEOUT_MS,
    hookTimeout: HOOK_TIMEOUT_MS,
    expect: { poll: { timeout: PATIENCE_MS } },
  },
});
