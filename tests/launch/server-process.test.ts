import { describe, expect, it } from 'vitest';
import { productionServerEnv } from '../../server/launch/server-process';

describe('the production server environment', () => {
  it('caps the V8 heap at 192 MB and glibc at two malloc arenas', () => {
    expect(productionServerEnv({})).toEqual({
      NODE_ENV: 'production',
      NODE_OPTIONS: '--max-old-space-size=192',
      MALLOC_ARENA_MAX: '2',
    });
  });

  it('keeps NODE_OPTIONS and MALLOC_ARENA_MAX that are set already', () => {
    const env = productionServerEnv({ NODE_ENV: 'production', NODE_OPTIONS: '--max-old-space-size=512', MALLOC_ARENA_MAX: '4' });

    expect(env.NODE_OPTIONS).toBe('--max-old-space-size=512');
    expect(env.MALLOC_ARENA_MAX).toBe('4');
  });
});
