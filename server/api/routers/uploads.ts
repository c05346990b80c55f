import { completeUpload, createUpload, sizeDiffers, UPLOAD_NOT_FOUND, UPLOAD_NOT_RECEIVED } from '../../attachments/direct-upload';
import { attachmentSchema, MAX_UPLOAD_BYTES } from '../../schemas/attachment';
import { directUploadSchema, UPLOAD_URL_TTL_MS } from '../../schemas/direct-upload';
import { TOO_MANY_ATTACHMENTS } from '../../attachments/limits';
import { TASK_NOT_FOUND } from '../../tasks/get';
import { completeUploadInput, createUploadInput } from '../inputs';
import { fileTooLarge } from '../messages';
import { operation } from '../operation';
import { projectProcedure, router } from '../trpc';

const MINUTES = UPLOAD_URL_TTL_MS / 60_000;

/**
 * The direct upload, beside the multipart one: the file announced, its bytes sent
 * straight to storage (so no function body limit applies), then completed into the
 * attachment the multipart upload would have answered.
 */
export const uploadsRouter = router({
  create: projectProcedure('task:create')
    .meta(
      operation('POST', '/{projectSlug}/tasks/{taskId}/attachments/uploads', {
        summary: 'Start a direct upload',
        tag: 'Attachments',
        description: `For files the multipart upload cannot carry (on Vercel, bodies above about 4.5 MB): announce the file, \
then send its bytes with \`method\` and \`headers\` to \`uploadUrl\` (valid ${MINUTES} minutes, once, at most \`size\` bytes, \
no API key), then complete the upload. \`size\` above ${MAX_UPLOAD_BYTES} bytes (10 MB) answers 413 and issues no URL.`,
        successStatus: 201,
        errors: {
          400: [
            'filename: must be 1 to 1024 characters',
            'mimeType: must be a media type such as image/png',
            'size: must be a whole number of bytes',
          ],
          404: [TASK_NOT_FOUND],
          409: [TOO_MANY_ATTACHMENTS],
          413: [fileTooLarge(MAX_UPLOAD_BYTES)],
        },
      }),
    )
    .input(createUploadInput)
    .output(directUploadSchema)
    .mutation(({ ctx, input }) => createUpload(ctx.db, ctx.principal.workspaceId, ctx.project, input.taskId, input)),

  complete: projectProcedure('task:create')
    .meta(
      operation('POST', '/{projectSlug}/tasks/{taskId}/attachments/uploads/{uploadId}/complete', {
        summary: 'Complete a direct upload',
        tag: 'Attachments',
        description: `Takes no body. Checks the bytes sent to \`uploadUrl\`: they must be the announced \`size\`, otherwise they \
are deleted and may be sent again while the URL is valid. Answers the attachment, as the multipart upload does; completing \
again answers the same attachment. An upload not completed within ${2 * MINUTES} minutes of its start is removed.`,
        successStatus: 201,
        bodyless: true,
        errors: {
          400: ['uploadId: must be a UUID', UPLOAD_NOT_RECEIVED, sizeDiffers('<n>', '<size>')],
          404: [TASK_NOT_FOUND, UPLOAD_NOT_FOUND],
          409: [TOO_MANY_ATTACHMENTS],
          413: [fileTooLarge(MAX_UPLOAD_BYTES)],
        },
      }),
    )
    .input(completeUploadInput)
    .output(attachmentSchema)
    .mutation(({ ctx, input }) => completeUpload(ctx.db, ctx.principal.workspaceId, ctx.project, input.taskId, input.uploadId)),
});
