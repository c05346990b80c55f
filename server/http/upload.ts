import { createHash } from 'node:crypto';
import { admit, type RequestState } from '../api/access';
import { recordedAnswer } from '../api/idempotency';
import { wrote } from '../api/reads';
import { BODY_TOO_LARGE, fileTooLarge, MULTIPART_INCOMPLETE, UPLOAD_AS_MULTIPART } from '../api/messages';
import type { RouteMatch } from '../api/routes';
import { MAX_UPLOAD_BYTES } from '../schemas/attachment';
import { taskWithRoomForAttachment } from '../attachments/attachments';
import { discardFile, recordAttachment, storeUpload } from '../attachments/upload';
import { db } from '../db/client';
import { AppError, badRequest } from '../errors';
import type { Exchange } from './exchange';
import { answerError } from '../api/errors';
import { fileReader, type FileLimits } from './multipart';
import { requestFingerprint } from '../api/idempotency';
import { claimIdempotencyKey, digesting, settleIdempotencyKey } from './idempotency';
import { errorResponse, responseHeaders } from './respond';

export interface UploadTarget {
  projectSlug: string;
  taskId: string;
  idempotencyKey: string | null;
}

// Boundaries, part headers and a few small fields around the file.
const MULTIPART_ALLOWANCE_BYTES = 64 * 1024;
const MAX_BODY_BYTES = MAX_UPLOAD_BYTES + MULTIPART_ALLOWANCE_BYTES;
const LIMITS: FileLimits = { field: 'file', fileBytes: MAX_UPLOAD_BYTES, fileTooLarge: fileTooLarge(MAX_UPLOAD_BYTES) };
const BODY_ERRORS = {
  tooLarge: () => new AppError('payload_too_large', BODY_TOO_LARGE),
  cutShort: () => badRequest(MULTIPART_INCOMPLETE),
};

/** POST /v1/public/{projectSlug}/tasks/{taskId}/attachments, whose multipart body tRPC cannot take. */
export function isUploadRoute(route: RouteMatch): boolean {
  return route.procedure === 'attachments.upload';
}

export async function handleUpload(req: Request, exchange: Exchange, state: RequestState, target: UploadTarget): Promise<Response> {
  let answer: Response;
  try {
    const attachment = await upload(req, exchange, state, target);
    answer = attachment instanceof Response ? attachment : Response.json(attachment, { status: 201, headers: responseHeaders(state, 201) });
  } catch (error) {
    answer = errorResponse(state, answerError(error, 'request.failed', { requestId: state.requestId }));
  }
  // As after any write through a procedure (server/api/trpc.ts): its next reads see it.
  if (state.authenticated) await wrote(state.authenticated.principal.keyId);
  return settleIdempotencyKey(state, answer);
}

/** The same checks, in the same order, as every other endpoint; then the body, streamed to storage. */
async function upload(req: Request, exchange: Exchange, state: RequestState, target: UploadTarget) {
  const { project } = await admit(state, 'task:create', target.projectSlug);
  const readFile = fileReader(req.headers, LIMITS);
  if (!readFile) throw new AppError('unsupported_media_type', UPLOAD_AS_MULTIPART);
  if (Number(req.headers.get('content-length')) > MAX_BODY_BYTES) {
    throw new AppError('payload_too_large', LIMITS.fileTooLarge);
  }
  const taskId = await taskWithRoomForAttachment(db(), project, target.taskId);
  // With an Idempotency-Key, the request is told apart by the file's name, type and bytes and by
  // the other fields, digested as they stream by (apart: the file's bytes may trail the parser's
  // events); the store is consulted once the body is read.
  const digests = target.idempotencyKey ? { file: createHash('sha256'), fields: createHash('sha256') } : undefined;
  let fileName: [string | null, string] | undefined;
  const stored = await readFile(
    exchange.streamBody(req, MAX_BODY_BYTES, BODY_ERRORS),
    (part) => {
      fileName = [part.filename ?? null, part.mimeType];
      return storeUpload({
        filename: part.filename,
        mimeType: part.mimeType,
        body: digests ? digesting(part.body, digests.file) : part.body,
      });
    },
    discardFile,
    digests && ((name, value) => digests.fields.update(`${JSON.stringify([name, value])}\n`)),
  );
  if (target.idempotencyKey && digests) {
    const path = `/${target.projectSlug}/tasks/${target.taskId}/attachments`;
    const parts = { file: [...fileName!, digests.file.digest('hex')], fields: digests.fields.digest('hex') };
    const answered = await claimIdempotencyKey(state, target.idempotencyKey, requestFingerprint('POST', path, parts), {
      successStatus: 201,
      etag: false,
      secretInAnswer: false,
    });
    if (answered) {
      discardFile(stored);
      return answered;
    }
  }
  return await recordAttachment(db(), project, taskId, stored, recordedAnswer(state));
}
