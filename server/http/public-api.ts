import { randomUUID } from 'node:crypto';
import { admit, admitToWorkspace, type RequestState } from '../api/access';
import { JSON_CONTENT_TYPE, MAX_TARGET_LENGTH, TARGET_TOO_LONG, unknownFields, UPLOAD_AS_MULTIPART } from '../api/messages';
import { findRoute, type HttpMethod, type RouteMatch } from '../api/routes';
import { AppError, badRequest } from '../errors';
import { boundedRoute, type Exchange } from './exchange';
import { challengeHeaders } from './challenge';
import { clientAddress } from './client-address';
import { answerError, INTERNAL_ERROR, type PublicError } from '../api/errors';
import { isJson, parseJsonObject } from './json-body';
import { callProcedure } from './openapi-caller';
import { urlOf } from './node-bridge';
import { PUBLIC_API_PREFIX, normalizePath } from './paths';
import { noneMatchFails } from '../api/conditional';
import { requestFingerprint } from '../api/idempotency';
import { claimIdempotencyKey, idempotencyKeyOf, sentIdempotencyKey, settleIdempotencyKey } from './idempotency';
import { recordAnswers } from './record-request';
import { BEFORE_THE_KEY, errorResponse, notModifiedResponse, preflightResponse } from './respond';
import { handleUpload, isUploadRoute } from './upload';
import { exportAuditLog, isAuditExportRoute } from './audit-export';

// Descriptions may hold 100,000 characters of up to 4 bytes each, plus the rest.
const MAX_JSON_BODY_BYTES = 1024 * 1024;
const PATH_PARAMS = ['projectSlug', 'taskId', 'attachmentId', 'uploadId', 'endpointId', 'deliveryId'];
const NOT_FOUND: PublicError = { statusCode: 404, message: 'Not found' };

/**
 * Every request under /v1/public, however its path is spelled, in this order:
 * the operation its method and path name (404, 405), the gate (key, rate limit,
 * scope, project, project scope) before a byte of the body is read, then the
 * Idempotency-Key (400), the body (413, 415, 400), the key's stored answer
 * (idempotency.ts) and the procedure through trpc-to-openapi (openapi-caller.ts);
 * multipart uploads are streamed beside it (upload.ts). Every answer leaves
 * through here, where the request log records it (record-request.ts).
 */
export const handlePublicRequest = boundedRoute(async (req, exchange) => {
  const arrivedAt = new Date();
  const started = performance.now();
  const state: RequestState = {
    requestId: randomUUID(),
    clientAddress: clientAddress(req.headers),
    headers: req.headers,
    answerMemory: exchange.answerMemory(),
  };
  const operation: Operation = {};
  const answer = await answerPublicRequest(req, exchange, state, operation);
  if (operation.route) {
    recordAnswers(state, req.headers, [
      {
        method: operation.route.method,
        route: `${PUBLIC_API_PREFIX}${operation.route.template}`,
        path: `${PUBLIC_API_PREFIX}${operation.path}`,
        status: answer.status,
        arrivedAt,
        durationMs: performance.now() - started,
        idempotencyKey: sentIdempotencyKey(req.method, req.headers),
        replayed: state.replayed === true,
        message: state.errorMessage ?? null,
      },
    ]);
  }
  return answer;
});

/** The operation a request named, once its method and path are matched. */
interface Operation {
  route?: RouteMatch;
  path?: string;
}

async function answerPublicRequest(req: Request, exchange: Exchange, state: RequestState, operation: Operation): Promise<Response> {
  const url = urlOf(req);
  // npm start's edge refuses these first; on Vercel this is where they stop.
  if (url.pathname.length + url.search.length > MAX_TARGET_LENGTH) {
    state.rateLimit = BEFORE_THE_KEY;
    state.rateLimitPolicy = 'per-address';
    return errorResponse(state, { statusCode: 414, message: TARGET_TOO_LONG });
  }
  const path = normalizePath(url.pathname).slice(PUBLIC_API_PREFIX.length);
  // HEAD is GET without the body, which the server leaves out when it sends the answer.
  const method = req.method === 'HEAD' ? 'GET' : req.method;

  const route = findRoute(method, path);
  if ('allowed' in route) {
    if (route.allowed.length === 0) return errorResponse(state, NOT_FOUND);
    const allow = allowHeader(route.allowed);
    if (method === 'OPTIONS') return preflightResponse(state, allow);
    return errorResponse(state, { statusCode: 405, message: `Method ${method} is not allowed here; use ${allow}` }, { Allow: allow });
  }
  operation.route = route;
  operation.path = path;

  try {
    if (route.workspace) {
      const { workspaceId } = await admitToWorkspace(state, route.scope, route);
      if (isAuditExportRoute(route)) return exportAuditLog(state, workspaceId, url);
    } else {
      await admit(state, route.scope!, decodeParam(route.params.projectSlug));
    }
    const idempotencyKey = idempotencyKeyOf(method, req.headers);
    if (isUploadRoute(route)) {
      if (isJson(req.headers.get('content-type'))) throw new AppError('unsupported_media_type', UPLOAD_AS_MULTIPART);
      return await handleUpload(req, exchange, state, {
        projectSlug: decodeParam(route.params.projectSlug),
        taskId: decodeParam(route.params.taskId),
        idempotencyKey,
      });
    }
    let body: Record<string, unknown> | undefined;
    if (route.bodyless && isEmpty(req.headers)) {
      body = {};
    } else if (method === 'POST' || method === 'PATCH') {
      const contentType = req.headers.get('content-type');
      if (!isJson(contentType)) throw new AppError('unsupported_media_type', JSON_CONTENT_TYPE);
      body = withoutPathParams(parseJsonObject(contentType, await exchange.readBody(req, MAX_JSON_BODY_BYTES), route.jsonValues));
    }
    if (idempotencyKey) {
      const answered = await claimIdempotencyKey(state, idempotencyKey, requestFingerprint(method, path, body), route);
      if (answered) return answered;
    }

    const response = await callProcedure({
      request: req,
      method: route.method,
      path,
      query: withoutPrototypeNames(url.searchParams),
      body,
      state,
      etag: route.etag,
    });
    // The whole gate ran and the request counted; a client whose copy is current gets no body.
    if (response.ok && method === 'GET' && state.etag && noneMatchFails(req.headers, state.etag)) return notModifiedResponse(state);
    if (response.ok) return await settleIdempotencyKey(state, response);
    // Only the public shape leaves: the library's own fields (code, issues, stack) stay here.
    const failure = (await response.json().catch(() => ({}))) as { publicError?: PublicError };
    const publicError = failure.publicError ?? INTERNAL_ERROR;
    return await settleIdempotencyKey(state, errorResponse(state, publicError, challengeHeaders(req.url, state, publicError.statusCode)));
  } catch (error) {
    const failure = answerError(error, 'request.failed', { requestId: state.requestId });
    return await settleIdempotencyKey(state, errorResponse(state, failure, challengeHeaders(req.url, state, failure.statusCode)));
  }
}

/** A request that says it has no body: no Content-Type, and no length or a length of 0. */
function isEmpty(headers: Headers): boolean {
  const length = headers.get('content-length');
  return !headers.has('content-type') && !headers.has('transfer-encoding') && (length === null || length.trim() === '0');
}

function allowHeader(methods: HttpMethod[]): string {
  const allowed = new Set<string>(methods);
  if (allowed.has('GET')) allowed.add('HEAD');
  allowed.add('OPTIONS');
  return [...allowed].join(', ');
}

/** A path parameter as the procedure receives it; one that is no valid percent-encoding names nothing. */
function decodeParam(value: string | undefined): string {
  try {
    return decodeURIComponent(value ?? '');
  } catch {
    return '';
  }
}

/** The body may not smuggle in a path parameter: the path names the resource. */
function withoutPathParams(body: Record<string, unknown>): Record<string, unknown> {
  const smuggled = PATH_PARAMS.filter((name) => Object.hasOwn(body, name));
  if (smuggled.length > 0) throw badRequest(unknownFields(smuggled));
  return body;
}

/**
 * The library gathers query parameters in a plain object, where a name such as
 * `toString` or `__proto__` finds Object.prototype's member and throws (a 500).
 * Unknown parameters are ignored anyway: such names are dropped before it looks.
 */
function withoutPrototypeNames(params: URLSearchParams): URLSearchParams {
  const names = [...params.keys()].filter((name) => name in Object.prototype);
  if (names.length === 0) return params;
  const copy = new URLSearchParams(params);
  for (const name of names) copy.delete(name);
  return copy;
}
