import { z } from 'zod';
import { dateTime } from './common';

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

export const attachmentSchema = z
  .object({
    id: z.uuid(),
    filename: z.string().meta({ description: 'Original filename' }),
    url: z.string().meta({ description: 'Presigned download URL, valid for 1 hour from the request' }),
    mimeType: z.string(),
    size: z.number().int().meta({ description: 'Bytes' }),
    createdAt: dateTime().meta({ description: 'Upload time' }),
  })
  .meta({ id: 'Attachment' });
