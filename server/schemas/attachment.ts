import { z } from 'zod';
import { dateTime, int32, text, uuid } from './common';

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** The largest upload as base64 (4 characters per 3 bytes, padded). */
export const MAX_INLINE_CONTENT_CHARS = Math.ceil(MAX_UPLOAD_BYTES / 3) * 4;

/** Attachments a task may have: a task's answer lists them all, so their number has a bound. */
export const MAX_ATTACHMENTS_PER_TASK = 100;
/** The most characters of a filename kept (path components and control characters dropped). */
export const MAX_FILENAME = 255;
export const MAX_MIME_TYPE = 255;
/** A download link: the app's or the store's origin, the object's key and a signature. */
export const MAX_DOWNLOAD_URL = 4_096;

export const attachmentSchema = z
  .object({
    id: uuid(),
    filename: z.string().max(MAX_FILENAME).meta({ description: 'Original filename' }),
    url: z.string().max(MAX_DOWNLOAD_URL).meta({ format: 'uri', description: 'Presigned download URL, valid for 1 hour from the request' }),
    mimeType: z.string().max(MAX_MIME_TYPE),
    size: int32().max(MAX_UPLOAD_BYTES).meta({ description: 'Bytes' }),
    createdAt: dateTime().meta({ description: 'Upload time' }),
  })
  .meta({ id: 'Attachment' });

/**
 * A file sent as data instead of multipart, as MCP tools take it: the API adds the
 * task's path parameters and checks the decoded size against MAX_UPLOAD_BYTES.
 */
export const inlineFileFields = z.strictObject({
  content: z
    .base64({ error: 'must be base64 (RFC 4648: A-Z, a-z, 0-9, +, / with = padding)' })
    .meta({ description: `The file's bytes, base64-encoded; at most ${MAX_UPLOAD_BYTES} bytes (10 MB) once decoded` }),
  filename: text()
    .max(1024, 'must be at most 1024 characters')
    .meta({ description: 'File name with its extension, e.g. `notes.txt`; path components are dropped, 255 characters kept' }),
  mimeType: z
    .string()
    .regex(/^[\w.+-]+\/[\w.+-]+$/, 'must be a MIME type such as text/plain')
    .max(255, 'must be at most 255 characters')
    .optional()
    .meta({ description: "MIME type, e.g. `image/png`; by default taken from the file name's extension" }),
});
