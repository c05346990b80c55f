import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { productionServerEnv } from '../../server/launch/server-process';

describe('the production server environment', () => {
  it('caps the V8 heap at 192 MB of old and 16 MB semi-spaces, and glibc at two malloc arenas', () => {
    expect(productionServerEnv({})).toEqual({
      NODE_ENV: 'production',
      NODE_OPTIONS: '--max-old-space-size=192 --max-semi-space-size=16',
      MALLOC_ARENA_MAX: '2',
    });
  });

  // CI runs the suite on the LTS the production server runs on (tests/support/lts-node.mjs).
  it(`gives the server the same 240 MB heap on the Node.js it runs on (${process.version})`, () => {
    const limit = execFileSync(process.execPath, ['-p', 'require("node:v8").getHeapStatistics().heap_size_limit'], {
      env: { ...process.env, NODE_OPTIONS: productionServerEnv({}).NODE_OPTIONS },
      encoding: 'utf8',
    });

    expect(Number(limit) / 1024 / 1024).toBe(240);
  });

  it('keeps NODE_OPTIONS and MALLOC_ARENA_MAX that are set already', () => {
    const env = productionServerEnv({ NODE_ENV: 'production', NODE_OPTIONS: '--max-old-space-size=512', MALLOC_ARENA_MAX: '4' });

    expect(env.NODE_OPTIONS).toBe('--max-old-space-size=512');
    expect(env.MALLOC_ARENA_MAX).toBe('4');
  });
});
