/**
 * `attachment` with the filename twice: a plain ASCII fallback for old clients
 * (quotes, backslashes, percent signs, control and non-ASCII characters replaced)
 * and the exact name as RFC 5987 UTF-8.
 */
export function contentDisposition(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%]/gu, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeRfc5987(filename)}`;
}

function encodeRfc5987(value: string): string {
  // encodeURIComponent leaves these unescaped, but RFC 5987's attr-char excludes them.
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
