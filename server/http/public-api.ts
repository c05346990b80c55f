import { randomUUID } from 'node:crypto';
import { createOpenApiFetchHandler } from 'trpc-to-openapi';
import type { RequestState } from '../api/access';
import { procedureMetas } from '../api/operation';
import { publicRouter } from '../api/router';
import { AppError, badRequest } from '../errors';
import { readBodyText } from './body';
import { INTERNAL_ERROR, toPublicError, type PublicError } from './errors';
import { errorResponse, responseHeaders } from './respond';
import { handleUpload, matchUploadPath } from './upload';

const PUBLIC_API_PREFIX = '/v1/public';
// Descriptions may hold 100,000 characters of up to 4 bytes each, plus the rest.
const MAX_JSON_BODY_BYTES = 1024 * 1024;
const PATH_PARAMS = ['projectSlug', 'taskId', 'attachmentId'];

/** Every request under /v1/public: JSON calls through trpc-to-openapi, multipart uploads beside it. */
export async function handlePublicRequest(req: Request): Promise<Response> {
  const state: RequestState = {
    requestId: randomUUID(),
    clientAddress: clientAddress(req.headers),
    headers: req.headers,
  };
  const url = new URL(req.url);
  const upload = matchUploadPath(req.method, url.pathname);
  if (upload && !isJson(req)) return handleUpload(req, state, upload);

  let request = req;
  const forwardUrl = withoutPrototypeNames(url) ?? req.url;
  if (forwardUrl !== req.url) request = new Request(forwardUrl, { method: req.method, headers: req.headers });
  if (req.method === 'POST' || req.method === 'PUT' || req.method === 'PATCH') {
    const body = await readBodyText(req, MAX_JSON_BODY_BYTES);
    if (body === null) return errorResponse(state, { statusCode: 413, message: 'Request body too large' });
    // Reported after the key and scope checks, like every other input problem. The
    // library would refuse a body it cannot parse before any check: it gets `{}` instead.
    state.bodyProblem = bodyProblem(req, body) ?? undefined;
    const headers = new Headers(req.headers);
    if (state.bodyProblem) {
      headers.set('content-type', 'application/json');
      headers.delete('content-length');
    }
    request = new Request(forwardUrl, { method: req.method, headers, body: state.bodyProblem ? '{}' : body });
  }

  const response = await createOpenApiFetchHandler({
    endpoint: PUBLIC_API_PREFIX,
    router: publicRouter,
    req: request,
    createContext: () => ({ state }),
    responseMeta: ({ paths, errors }) => {
      const status = errors[0] ? toPublicError(errors[0]).statusCode : successStatus(paths?.[0]);
      return { status, headers: responseHeaders(state, status) };
    },
  });
  if (response.ok) return response;
  // Only the public shape leaves: the library's own fields (code, issues, stack) stay here.
  const body = (await response.json().catch(() => ({}))) as { publicError?: PublicError };
  return errorResponse(state, body.publicError ?? INTERNAL_ERROR);
}

const metas = procedureMetas(publicRouter);

function successStatus(path: string | undefined): number {
  return (path && metas.get(path)?.successStatus) || 200;
}

function isJson(req: Request): boolean {
  return req.headers.get('content-type')?.toLowerCase().startsWith('application/json') ?? false;
}

/** JSON bodies must be JSON objects, and may not smuggle in a path parameter. */
function bodyProblem(req: Request, text: string): AppError | null {
  if (!isJson(req)) return new AppError('unsupported_media_type', 'Content-Type must be application/json');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return badRequest('Request body is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return badRequest('Request body must be a JSON object');
  const smuggled = PATH_PARAMS.filter((name) => Object.hasOwn(value, name));
  return smuggled.length ? badRequest(`Unknown field${smuggled.length > 1 ? 's' : ''}: ${smuggled.join(', ')}`) : null;
}

/**
 * The library gathers query parameters in a plain object, where a name such as
 * `toString` or `__proto__` finds Object.prototype's member and throws (a 500).
 * Unknown parameters are ignored anyway: such names are dropped before it looks.
 */
function withoutPrototypeNames(url: URL): string | null {
  const names = [...url.searchParams.keys()].filter((name) => name in Object.prototype);
  if (names.length === 0) return null;
  const copy = new URL(url);
  for (const name of names) copy.searchParams.delete(name);
  return copy.href;
}

/** The client's address as the nearest proxy saw it (Vercel and most proxies set X-Forwarded-For). */
export function clientAddress(headers: Headers): string {
  const forwarded = headers.get('x-forwarded-for')?.split(',')[0]?.trim();
  return forwarded || headers.get('x-real-ip')?.trim() || 'unknown';
}
