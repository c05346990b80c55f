import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeEveryStep, normalizePath } from '../../server/http/paths';

describe('normalizePath', () => {
  it('spells a path one way', () => {
    expect(normalizePath('/v1/./public//web/%74asks')).toBe('/v1/public/web/tasks');
    expect(normalizePath('/v1/public/web/tasks/')).toBe('/v1/public/web/tasks/');
    expect(normalizePath('/v1/public/web/x/..')).toBe('/v1/public/web/');
    expect(normalizePath('/v1/public/a%2fb')).toBe('/v1/public/a%2Fb');
    expect(normalizePath('/v1/public/.well/..x')).toBe('/v1/public/.well/..x');
  });

  it('takes every step only where a path needs one, with the same result', () => {
    const pieces = fc.constantFrom('/', '.', '..', '%', '2e', '2E', '2f', '74', 'a', '~', 'web', '-');
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 12 }), (parts) => {
        const path = `/${parts.join('')}`;
        expect(normalizePath(path)).toBe(normalizeEveryStep(path));
      }),
      { numRuns: 2000 },
    );
  });
});
