import { randomUUID } from 'node:crypto';
import type { RequestState } from '../api/access';
import { AppError, badRequest } from '../errors';
import { readBodyText } from './body';
import { INTERNAL_ERROR, type PublicError } from './errors';
import { callProcedure } from './openapi-caller';
import { errorResponse } from './respond';
import { handleUpload, matchUploadPath } from './upload';

const PUBLIC_API_PREFIX = '/v1/public';
// Descriptions may hold 100,000 characters of up to 4 bytes each, plus the rest.
const MAX_JSON_BODY_BYTES = 1024 * 1024;
const PATH_PARAMS = ['projectSlug', 'taskId', 'attachmentId'];

/** Every request under /v1/public: JSON calls through trpc-to-openapi (openapi-caller.ts), multipart uploads beside it. */
export async function handlePublicRequest(req: Request): Promise<Response> {
  const state: RequestState = {
    requestId: randomUUID(),
    clientAddress: clientAddress(req.headers),
    headers: req.headers,
  };
  const url = new URL(req.url);
  const upload = matchUploadPath(req.method, url.pathname);
  if (upload && !isJson(req)) return handleUpload(req, state, upload);

  let input: unknown;
  if (req.method === 'POST' || req.method === 'PUT' || req.method === 'PATCH') {
    const text = await readBodyText(req, MAX_JSON_BODY_BYTES);
    if (text === null) return errorResponse(state, { statusCode: 413, message: 'Request body too large' });
    // Reported after the key and scope checks, like every other input problem. The
    // library would refuse a body it cannot parse before any check: it gets `{}` instead.
    const parsed = parseBody(req, text);
    if (parsed instanceof AppError) state.bodyProblem = parsed;
    input = parsed instanceof AppError ? {} : parsed;
  }

  try {
    const response = await callProcedure({
      request: req,
      path: url.pathname.slice(PUBLIC_API_PREFIX.length),
      query: withoutPrototypeNames(url.searchParams),
      body: input,
      state,
    });
    // A large answer gives back its memory budget once its JSON text has become bytes.
    if (response.ok) return state.releaseMemory ? await asBytes(response) : response;
    // Only the public shape leaves: the library's own fields (code, issues, stack) stay here.
    const failure = (await response.json().catch(() => ({}))) as { publicError?: PublicError };
    return errorResponse(state, failure.publicError ?? INTERNAL_ERROR);
  } finally {
    state.releaseMemory?.();
  }
}

async function asBytes(response: Response): Promise<Response> {
  return new Response(await response.arrayBuffer(), { status: response.status, headers: response.headers });
}

/** Whether a request target is the API's: its OpenAPI document is a page of its own. */
export function isPublicApiPath(target: string): boolean {
  return target.startsWith(`${PUBLIC_API_PREFIX}/`) && !/^\/v1\/public\/openapi\.json(?:[?#]|$)/.test(target);
}

function isJson(req: Request): boolean {
  return req.headers.get('content-type')?.toLowerCase().startsWith('application/json') ?? false;
}

/** The body as a JSON object, or why it cannot be one: it may not smuggle in a path parameter either. */
function parseBody(req: Request, text: string): object | AppError {
  if (!isJson(req)) return new AppError('unsupported_media_type', 'Content-Type must be application/json');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return badRequest('Request body is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return badRequest('Request body must be a JSON object');
  const smuggled = PATH_PARAMS.filter((name) => Object.hasOwn(value, name));
  return smuggled.length ? badRequest(`Unknown field${smuggled.length > 1 ? 's' : ''}: ${smuggled.join(', ')}`) : value;
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

/**
 * The client's address, first in X-Forwarded-For: Vercel writes that header itself,
 * replacing any the client sent, and under `npm start` the node:http bridge leaves
 * the one address it could vouch for there (node-bridge.ts, forwardedClient).
 */
export function clientAddress(headers: Headers): string {
  return headers.get('x-forwarded-for')?.split(',')[0]?.trim() || 'unknown';
}
