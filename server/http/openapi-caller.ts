import { createOpenApiNextHandler } from 'trpc-to-openapi';
import type { RequestState } from '../api/access';
import { procedureMetas } from '../api/operation';
import { publicRouter } from '../api/router';
import type { Context } from '../api/trpc';
import { callThroughNextAdapter, type OpenApiCall } from '../vendor/trpc-to-openapi-caller';
import { toPublicError } from '../api/errors';
import { etagOfTaskJson } from '../tasks/etag';
import { jsonResponse } from './node-bridge';
import { responseHeaders } from './respond';

/** What the procedures receive of a request, its checks done by handlePublicRequest. */
export interface ProcedureCall extends OpenApiCall {
  state: RequestState;
  /** The operation answers a task with its entity tag (server/tasks/etag.ts). */
  etag: boolean;
}

const states = new WeakMap<object, RequestState>();
const metas = procedureMetas(publicRouter);

// Built once, with the route table it matches paths by (see server/vendor/trpc-to-openapi-caller.ts).
const handler = createOpenApiNextHandler({
  router: publicRouter,
  createContext: ({ req }): Context => ({ state: states.get(req)! }),
  responseMeta: ({ ctx, paths, errors }) => {
    const status = errors[0] ? toPublicError(errors[0]).statusCode : successStatus(paths?.[0]);
    return { status, headers: ctx ? responseHeaders((ctx as Context).state, status) : {} };
  },
});

/**
 * The procedure's answer as a Response. A task's entity tag is the hash of the
 * task's JSON text, so it is taken from the answer's text, which the library
 * has serialised already, rather than from serialising the task once more.
 */
export async function callProcedure(call: ProcedureCall): Promise<Response> {
  const answer = await callThroughNextAdapter(handler, call, (req) => states.set(req, call.state));
  if (call.etag && answer.status < 300 && answer.body !== undefined) {
    call.state.etag = etagOfTaskJson(answer.body);
    answer.headers.push(['etag', call.state.etag]);
  }
  return answer.body === undefined
    ? new Response(null, { status: answer.status, headers: answer.headers })
    : jsonResponse(answer.body, { status: answer.status, headers: answer.headers });
}

function successStatus(path: string | undefined): number {
  return (path && metas.get(path)?.successStatus) || 200;
}
