export const PUBLIC_API_PREFIX = '/v1/public';
const OPENAPI_DOCUMENT = `${PUBLIC_API_PREFIX}/openapi.json`;
const UNRESERVED = /[A-Za-z0-9._~-]/;
const ODD_SPELLING = /%|\/\/|\/\.\.?(\/|$)/;

/**
 * A request path in one spelling (RFC 3986, 6.2.2): percent-encoded unreserved
 * characters decoded and the remaining escapes upper-cased, dot segments removed,
 * runs of slashes made one. `/v1/./public//web/%74asks` is `/v1/public/web/tasks`:
 * however a client spells a path, it reaches the handler that path names.
 * An encoded slash stays encoded: it is data inside a segment, not a separator.
 */
export function normalizePath(pathname: string): string {
  // Most paths are in that spelling already: no escape, no empty or dot segment.
  if (pathname.startsWith('/') && !ODD_SPELLING.test(pathname)) return pathname;
  return normalizeEveryStep(pathname);
}

/** normalizePath without its short cut: every step, whatever the path (its test compares the two). */
export function normalizeEveryStep(pathname: string): string {
  const decoded = pathname.replace(/%([0-9A-Fa-f]{2})/g, (escape, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : escape.toUpperCase();
  });
  const segments: string[] = [];
  for (const segment of decoded.split('/').slice(1)) {
    if (segment === '..') segments.pop();
    else if (segment !== '.' && segment !== '') segments.push(segment);
  }
  const trailing = /\/\.{0,2}$/.test(decoded) && segments.length > 0 ? '/' : '';
  return `/${segments.join('/')}${trailing}`;
}

/** Whether a path's percent-escapes spell UTF-8: Next.js answers 500 to one that does not. */
export function isDecodablePath(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/** Whether a normalized path is the public API's: its OpenAPI document is a page of its own. */
export function isPublicApiPath(path: string): boolean {
  return path.startsWith(`${PUBLIC_API_PREFIX}/`) && path !== OPENAPI_DOCUMENT;
}
