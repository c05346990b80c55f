import { createOpenApiNextHandler } from 'trpc-to-openapi';
import type { RequestState } from '../api/access';
import { procedureMetas } from '../api/operation';
import { publicRouter } from '../api/router';
import type { Context } from '../api/trpc';
import { callThroughNextAdapter, type OpenApiCall } from '../vendor/trpc-to-openapi-caller';
import { toPublicError } from '../api/errors';
import { responseHeaders } from './respond';

/** What the procedures receive of a request, its checks done by handlePublicRequest. */
export interface ProcedureCall extends OpenApiCall {
  state: RequestState;
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

export function callProcedure(call: ProcedureCall): Promise<Response> {
  return callThroughNextAdapter(handler, call, (req) => states.set(req, call.state));
}

function successStatus(path: string | undefined): number {
  return (path && metas.get(path)?.successStatus) || 200;
}
