import { defineConfig } from 'vitest/config';
import base from '../vitest.config';

/**
 * The fault tests (`npm run test:faults`): they start PostgreSQL and Redis servers
 * of their own and stop them under load, so they need the machine's PostgreSQL
 * binaries and redis-server, and bring their own database instead of the suite's.
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['tests/faults/**/*.test.ts'],
    exclude: ['node_modules/**'],
    globalSetup: [],
    setupFiles: [],
    testTimeout: 300_000,
    hookTimeout: 600_000,
  },
});
