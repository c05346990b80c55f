const MAX_FILENAME_CHARS = 255;
const FALLBACK = 'file';

/**
 * The client's filename as data: only its last path component, without control
 * characters (PostgreSQL text cannot hold NUL), at most 255 characters.
 */
export function cleanFilename(raw: string | undefined): string {
  const base = (raw ?? '').split(/[/\\]/).pop() ?? '';
  const printable = base.replace(/\p{Cc}/gu, '');
  const name = printable === '.' || printable === '..' ? '' : printable;
  return [...name].slice(0, MAX_FILENAME_CHARS).join('') || FALLBACK;
}
