import { defineConfig } from 'vitest/config';
import base from '../vitest.config';

/**
 * The deployment tests (`npm run test:deploy`): they start what production runs
 * (a PostgreSQL primary and replica, PgBouncer, Redis, four `npm start` machines)
 * on this machine, so they need PostgreSQL's server binaries, redis-server and
 * PgBouncer (their pretest brings it), and bring their own database instead of the suite's.
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['tests/deploy/**/*.test.ts'],
    exclude: ['node_modules/**'],
    globalSetup: [],
    setupFiles: [],
    testTimeout: 300_000,
    hookTimeout: 600_000,
  },
});
