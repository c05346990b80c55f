import { admit, type RequestState } from '../api/access';
import { fileTooLarge, UPLOAD_AS_MULTIPART } from '../api/messages';
import type { RouteMatch } from '../api/routes';
import { MAX_UPLOAD_BYTES } from '../schemas/attachment';
import { cleanFilename } from '../attachments/filename';
import { mimeTypeOf } from '../attachments/mime-type';
import { discardFile, recordAttachment, storeFile } from '../attachments/upload';
import { db } from '../db/client';
import { AppError } from '../errors';
import { findTaskId } from '../tasks/get';
import { holdStreamedBody } from './body';
import { answerError } from '../api/errors';
import { fileReader, type FileLimits } from './multipart';
import { errorResponse, responseHeaders } from './respond';

export interface UploadTarget {
  projectSlug: string;
  taskId: string;
}

// Boundaries, part headers and a few small fields around the file.
const MULTIPART_ALLOWANCE_BYTES = 64 * 1024;
const LIMITS: FileLimits = {
  field: 'file',
  fileBytes: MAX_UPLOAD_BYTES,
  bodyBytes: MAX_UPLOAD_BYTES + MULTIPART_ALLOWANCE_BYTES,
  fileTooLarge: fileTooLarge(MAX_UPLOAD_BYTES),
};

/** POST /v1/public/{projectSlug}/tasks/{taskId}/attachments, whose multipart body tRPC cannot take. */
export function isUploadRoute(route: RouteMatch): boolean {
  return route.procedure === 'attachments.upload';
}

export async function handleUpload(req: Request, state: RequestState, target: UploadTarget): Promise<Response> {
  try {
    const attachment = await upload(req, state, target);
    return Response.json(attachment, { status: 201, headers: responseHeaders(state, 201) });
  } catch (error) {
    return errorResponse(state, answerError(error, 'request.failed', { requestId: state.requestId }));
  }
}

/** The same checks, in the same order, as every other endpoint; then the body, streamed to storage. */
async function upload(req: Request, state: RequestState, target: UploadTarget) {
  const { project } = await admit(state, 'task:create', target.projectSlug);
  const readFile = fileReader(req.headers, LIMITS);
  if (!readFile) throw new AppError('unsupported_media_type', UPLOAD_AS_MULTIPART);
  if (Number(req.headers.get('content-length')) > LIMITS.bodyBytes) {
    throw new AppError('payload_too_large', LIMITS.fileTooLarge);
  }
  const taskId = await findTaskId(db(), project, target.taskId);
  const release = await holdStreamedBody();
  try {
    const stored = await readFile(
      req.body,
      (part) => {
        const filename = cleanFilename(part.filename);
        return storeFile({ filename, mimeType: mimeTypeOf(part.mimeType, filename), body: part.body });
      },
      discardFile,
    );
    return await recordAttachment(db(), project, taskId, stored);
  } finally {
    release();
  }
}
