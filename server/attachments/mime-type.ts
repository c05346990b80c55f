const BY_EXTENSION: Record<string, string> = {
  avif: 'image/avif',
  bmp: 'image/bmp',
  csv: 'text/csv',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  gif: 'image/gif',
  gz: 'application/gzip',
  heic: 'image/heic',
  htm: 'text/html',
  html: 'text/html',
  ico: 'image/vnd.microsoft.icon',
  jpeg: 'image/jpeg',
  jpg: 'image/jpeg',
  js: 'text/javascript',
  json: 'application/json',
  log: 'text/plain',
  md: 'text/markdown',
  mov: 'video/quicktime',
  mp3: 'audio/mpeg',
  mp4: 'video/mp4',
  odt: 'application/vnd.oasis.opendocument.text',
  pdf: 'application/pdf',
  png: 'image/png',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  rtf: 'application/rtf',
  svg: 'image/svg+xml',
  tar: 'application/x-tar',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  txt: 'text/plain',
  wav: 'audio/wav',
  webm: 'video/webm',
  webp: 'image/webp',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  xml: 'application/xml',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  zip: 'application/zip',
};

const UNKNOWN = 'application/octet-stream';
// What the multipart parser reports when a part has no Content-Type (RFC 7578's default).
const PART_DEFAULT = 'text/plain';

/**
 * The part's own type, unless it says nothing useful: `application/octet-stream`,
 * or the bare default that also stands for "no Content-Type" while the
 * filename's extension knows better; then the extension decides.
 */
export function mimeTypeOf(declared: string, filename: string): string {
  const type = declared.toLowerCase();
  const derived = BY_EXTENSION[filename.split('.').pop()?.toLowerCase() ?? ''];
  if (type === UNKNOWN) return derived ?? UNKNOWN;
  if (type === PART_DEFAULT && derived) return derived;
  return type;
}
