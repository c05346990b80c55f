import { z } from 'zod';
import { dateTime, taskPath, uuid } from './common';

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

export const getAttachmentInput = z.object({
  ...taskPath,
  attachmentId: uuid().meta({ description: 'Attachment UUID, as in the task\'s `attachments`', example: '0b7f3c5e-8a51-4d6e-9a3b-5c2f1e7d9a40' }),
});
