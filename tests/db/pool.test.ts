import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPool } from '../../server/db/pool';

// Where @vercel/functions finds the function's request context, whose waitUntil holds the function.
const REQUEST_CONTEXT = Symbol.for('@vercel/request-context');

/** A request context whose waitUntil calls are counted, as Vercel's runtime provides one. */
function countWaitUntil(): { calls: () => number } {
  let calls = 0;
  (globalThis as Record<symbol, unknown>)[REQUEST_CONTEXT] = { get: () => ({ waitUntil: () => calls++ }) };
  return { calls: () => calls };
}

/** One statement on a new pool, whose connection is released after it. */
async function oneStatement(): Promise<void> {
  const pool = createPool({ url: process.env.DATABASE_URL!, max: 1, applicationName: 'taskapi-test', onError: () => {} });
  try {
    await pool.query('SELECT 1');
  } finally {
    await pool.end();
  }
}

describe('the process pool and a Vercel function', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    delete (globalThis as Record<symbol, unknown>)[REQUEST_CONTEXT];
  });

  it('on Vercel, a released connection holds the function until the pool may close it', async () => {
    vi.stubEnv('VERCEL_URL', 'task-api.vercel.app');
    vi.stubEnv('VERCEL_REGION', 'iad1');
    const context = countWaitUntil();
    await oneStatement();
    expect(context.calls()).toBeGreaterThan(0);
  });

  it('elsewhere, releasing a connection runs no listener of a function', async () => {
    vi.stubEnv('VERCEL_URL', '');
    vi.stubEnv('VERCEL_REGION', '');
    const pool = createPool({ url: process.env.DATABASE_URL!, max: 1, applicationName: 'taskapi-test', onError: () => {} });
    try {
      expect(pool.listenerCount('release')).toBe(0);
    } finally {
      await pool.end();
    }
  });
});
