import { z } from 'zod';
import { MAX_DOWNLOAD_URL, MAX_UPLOAD_BYTES } from './attachment';
import { dateTime, text, uuid } from './common';

/** How long an upload URL takes bytes; completing is possible for as long again (server/attachments/direct-upload.ts). */
export const UPLOAD_URL_TTL_MS = 15 * 60 * 1000;
const MAX_FILENAME_INPUT = 1024;
const MIME_TYPE = /^[A-Za-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+-]+$/;

/** What a client announces before it sends the bytes of a direct upload; the API adds the task's path parameters. */
export const createUploadFields = z.strictObject({
  filename: text().min(1, 'must be 1 to 1024 characters').max(MAX_FILENAME_INPUT, 'must be 1 to 1024 characters').meta({
    description: 'Original filename; path components and control characters are dropped, at most 255 characters are kept',
    example: 'screenshot.png',
  }),
  mimeType: z
    .string()
    .max(255, 'must be a media type such as image/png')
    .regex(MIME_TYPE, 'must be a media type such as image/png')
    .optional()
    .meta({ description: 'Media type; derived from the filename when missing or `application/octet-stream`', example: 'image/png' }),
  size: z
    .number({ error: 'must be a whole number of bytes' })
    .int({ error: 'must be a whole number of bytes' })
    .min(0, 'must be a whole number of bytes')
    .meta({
      format: 'int32',
      description: `Exact size of the file in bytes; above ${MAX_UPLOAD_BYTES} (10 MB) the answer is 413`,
      maximum: MAX_UPLOAD_BYTES,
      example: 9_961_472,
    }),
});

export const directUploadSchema = z
  .object({
    uploadId: uuid().meta({ description: 'Names the upload when completing it' }),
    uploadUrl: z
      .string()
      .max(MAX_DOWNLOAD_URL)
      .meta({ description: `Where to send the file's bytes, valid ${UPLOAD_URL_TTL_MS / 60_000} minutes; it takes them once` }),
    method: z.literal('PUT').meta({ description: 'The method to send them with' }),
    headers: z
      .record(z.string().max(100), z.string().max(1_000))
      .meta({ description: 'Headers to send with them, as given', example: { 'Content-Type': 'image/png' } }),
    expiresAt: dateTime().meta({ description: 'When `uploadUrl` stops taking bytes' }),
  })
  .meta({ id: 'DirectUpload' });
