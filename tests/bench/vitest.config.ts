import { defineConfig } from 'vitest/config';
import base from '../vitest.config';

/**
 * The benchmark's own checks, without a database or a server: how it tells the
 * floor's statements from the server's (`npx vitest run --config tests/bench/vitest.config.ts`).
 * The suite leaves tests/bench out; `npm run bench -- --statements` compares the real statements.
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['tests/bench/**/*.test.ts'],
    exclude: ['node_modules/**'],
    globalSetup: [],
    setupFiles: [],
  },
});
