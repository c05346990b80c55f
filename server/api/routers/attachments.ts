import { getAttachment } from '../../attachments/attachments';
import { attachFile } from '../../attachments/upload';
import { AppError } from '../../errors';
import { TOO_MANY_ATTACHMENTS } from '../../attachments/limits';
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
import { attachmentSchema, MAX_UPLOAD_BYTES } from '../../schemas/attachment';
import { getAttachmentInput, taskInput, uploadInlineInput } from '../inputs';
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
    .query(({ ctx, input }) => getAttachment(ctx.db, ctx.project, input.taskId, input.attachmentId)),

  // Multipart bodies are served by server/http/upload.ts before they reach tRPC
  // (trpc-to-openapi refuses them); this procedure describes the operation in the
  // OpenAPI document, answers JSON bodies, after the same checks, with 415, and
  // stores a file that came as data with the call (the MCP tool, server/mcp/).
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
          409: [TOO_MANY_ATTACHMENTS],
          413: [fileTooLarge(MAX_UPLOAD_BYTES), BODY_TOO_LARGE],
          415: [UPLOAD_AS_MULTIPART],
        },
      }),
    })
    .input(taskInput)
    .output(attachmentSchema)
    .mutation(({ ctx, input }) => {
      if (ctx.inlineFile === undefined) throw new AppError('unsupported_media_type', UPLOAD_AS_MULTIPART);
      const file = uploadInlineInput.parse(ctx.inlineFile);
      const bytes = Buffer.from(file.content, 'base64');
      if (bytes.byteLength > MAX_UPLOAD_BYTES) throw new AppError('payload_too_large', fileTooLarge(MAX_UPLOAD_BYTES));
      return attachFile(ctx.db, ctx.project, input.taskId, {
        filename: file.filename,
        mimeType: file.mimeType ?? 'application/octet-stream',
        bytes,
      });
    }),
});
