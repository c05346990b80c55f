import { getAttachment } from '../../attachments/attachments';
import { completeUpload, createUpload, sizeDiffers, UPLOAD_NOT_FOUND, UPLOAD_NOT_RECEIVED } from '../../attachments/direct-upload';
import { db } from '../../db/client';
import { AppError } from '../../errors';
import { TASK_NOT_FOUND } from '../../tasks/get';
import { ATTACHMENT_NOT_FOUND } from '../../attachments/attachments';
import {
  BODY_TOO_LARGE,
  filePartRequired,
  fileTooLarge,
  MULTIPART_INCOMPLETE,
  MULTIPART_MALFORMED,
  oneFilePartOnly,
  UPLOAD_AS_MULTIPART,
} from '../messages';
import { operation } from '../operation';
import { attachmentSchema, directUploadSchema, MAX_UPLOAD_BYTES, UPLOAD_URL_TTL_MS } from '../../schemas/attachment';
import { completeUploadInput, createUploadInput, getAttachmentInput, taskInput } from '../inputs';
import { projectProcedure, router } from '../trpc';

export const attachmentsRouter = router({
  get: projectProcedure('task:read')
    .meta(
      operation('GET', '/{projectSlug}/tasks/{taskId}/attachments/{attachmentId}', {
        summary: 'Get an attachment',
        tag: 'Attachments',
        description: 'The attachment must belong to the task. `url` downloads the file for one hour from this request.',
        errors: { 400: ['attachmentId: must be a UUID'], 404: [TASK_NOT_FOUND, ATTACHMENT_NOT_FOUND] },
      }),
    )
    .input(getAttachmentInput)
    .output(attachmentSchema)
    .query(({ ctx, input }) => getAttachment(db(), ctx.project, input.taskId, input.attachmentId)),

  // Multipart bodies are served by server/http/upload.ts before they reach tRPC
  // (trpc-to-openapi refuses them); this procedure describes the operation in the
  // OpenAPI document and answers JSON bodies, after the same checks, with 415.
  upload: projectProcedure('task:create')
    .meta({
      ...operation('POST', '/{projectSlug}/tasks/{taskId}/attachments', {
        summary: 'Upload an attachment',
        tag: 'Attachments',
        description: `multipart/form-data with one file part named \`file\`, at most ${MAX_UPLOAD_BYTES} bytes (10 MB).`,
        successStatus: 201,
        multipart: true,
        errors: {
          400: [filePartRequired('file'), oneFilePartOnly('file'), MULTIPART_MALFORMED, MULTIPART_INCOMPLETE],
          404: [TASK_NOT_FOUND],
          413: [fileTooLarge(MAX_UPLOAD_BYTES), BODY_TOO_LARGE],
          415: [UPLOAD_AS_MULTIPART],
        },
      }),
    })
    .input(taskInput)
    .output(attachmentSchema)
    .mutation(() => {
      throw new AppError('unsupported_media_type', UPLOAD_AS_MULTIPART);
    }),

  createUpload: projectProcedure('task:create')
    .meta(
      operation('POST', '/{projectSlug}/tasks/{taskId}/attachments/uploads', {
        summary: 'Start a direct upload',
        tag: 'Attachments',
        description: `For files the multipart upload cannot carry (on Vercel, bodies above about 4.5 MB): announce the file, \
then send its bytes with \`method\` and \`headers\` to \`uploadUrl\` (valid ${UPLOAD_URL_TTL_MS / 60_000} minutes, once, \
at most \`size\` bytes), then complete the upload. \`size\` above ${MAX_UPLOAD_BYTES} bytes (10 MB) answers 413 and issues no URL.`,
        successStatus: 201,
        errors: {
          400: [
            'filename: must be 1 to 1024 characters',
            'mimeType: must be a media type such as image/png',
            'size: must be a whole number of bytes',
          ],
          404: [TASK_NOT_FOUND],
          413: [fileTooLarge(MAX_UPLOAD_BYTES)],
        },
      }),
    )
    .input(createUploadInput)
    .output(directUploadSchema)
    .mutation(({ ctx, input }) => createUpload(db(), ctx.principal.workspaceId, ctx.project, input.taskId, input)),

  completeUpload: projectProcedure('task:create')
    .meta(
      operation('POST', '/{projectSlug}/tasks/{taskId}/attachments/uploads/{uploadId}/complete', {
        summary: 'Complete a direct upload',
        tag: 'Attachments',
        description: `Checks the bytes sent to \`uploadUrl\` (they must be the announced \`size\`; otherwise they are deleted and \
may be sent again while the URL is valid) and answers the attachment, as the multipart upload does. Completing again \
answers the same attachment. An upload not completed within ${(2 * UPLOAD_URL_TTL_MS) / 60_000} minutes of its start is removed. \
Takes no body.`,
        successStatus: 201,
        bodyless: true,
        errors: {
          400: ['uploadId: must be a UUID', UPLOAD_NOT_RECEIVED, sizeDiffers('<n>', '<size>')],
          404: [TASK_NOT_FOUND, UPLOAD_NOT_FOUND],
          413: [fileTooLarge(MAX_UPLOAD_BYTES)],
        },
      }),
    )
    .input(completeUploadInput)
    .output(attachmentSchema)
    .mutation(({ ctx, input }) => completeUpload(db(), ctx.principal.workspaceId, ctx.project, input.taskId, input.uploadId)),
});
