import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizePath } from '../../server/http/paths';

/** Every step of RFC 3986's normalization, taken whatever the path: what normalizePath must agree with. */
function everyStep(pathname: string): string {
  const decoded = pathname.replace(/%([0-9A-Fa-f]{2})/g, (escape, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return /[A-Za-z0-9._~-]/.test(char) ? char : escape.toUpperCase();
  });
  const segments: string[] = [];
  for (const segment of decoded.split('/').slice(1)) {
    if (segment === '..') segments.pop();
    else if (segment !== '.' && segment !== '') segments.push(segment);
  }
  const trailing = /\/\.{0,2}$/.test(decoded) && segments.length > 0 ? '/' : '';
  return `/${segments.join('/')}${trailing}`;
}

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
        expect(normalizePath(path)).toBe(everyStep(path));
      }),
      { numRuns: 2000 },
    );
  });
});
