import { createOpenApiNextHandler } from 'trpc-to-openapi';
import type { RequestState } from '../api/access';
import { procedureMetas } from '../api/operation';
import { publicRouter } from '../api/router';
import type { Context } from '../api/trpc';
import { toPublicError } from './errors';
import { responseHeaders } from './respond';

/** What the procedures receive of a request, its checks done by handlePublicRequest. */
export interface ProcedureCall {
  request: Request;
  /** The method the operation was found by: a HEAD request is served as its GET. */
  method: string;
  /** The path below /v1/public, still percent-encoded, as the router's templates match it. */
  path: string;
  query: URLSearchParams;
  /** The parsed JSON body of a POST, PUT or PATCH. */
  body?: unknown;
  state: RequestState;
}

const states = new WeakMap<object, RequestState>();
const metas = procedureMetas(publicRouter);

/**
 * trpc-to-openapi's fetch adapter builds its route table (a regular expression per
 * procedure) again on every request; its Next.js adapter builds it once. This
 * drives the latter with the web Request, as the fetch adapter drives the same
 * core: the request stands in for Next's, with the path, query and parsed body
 * where that adapter reads them.
 */
const handler = createOpenApiNextHandler({
  router: publicRouter,
  createContext: ({ req }): Context => ({ state: states.get(req)! }),
  responseMeta: ({ ctx, paths, errors }) => {
    const status = errors[0] ? toPublicError(errors[0]).statusCode : successStatus(paths?.[0]);
    return { status, headers: ctx ? responseHeaders((ctx as Context).state, status) : {} };
  },
});

export function callProcedure(call: ProcedureCall): Promise<Response> {
  const query: Record<string, string | string[]> = { trpc: call.path.split('/').filter(Boolean) };
  for (const name of new Set(call.query.keys())) {
    const values = call.query.getAll(name);
    if (name !== 'trpc') query[name] = values.length === 1 ? values[0]! : values;
  }
  let url = call.request.url;
  // The body was checked and parsed already: the core is told it is JSON.
  const headers = call.body === undefined ? call.request.headers : jsonHeaders(call.request.headers);
  const req = new Proxy(call.request, {
    get(target, property) {
      if (property === 'method') return call.method;
      if (property === 'query') return query;
      if (property === 'url') return url;
      if (property === 'body') return call.body;
      if (property === 'headers') return headers;
      return Reflect.get(target, property, target);
    },
    set(_target, property, value) {
      if (property !== 'url') return false;
      url = value as string;
      return true;
    },
  });
  states.set(req, call.state);

  return new Promise((resolve, reject) => {
    const responseHeaders = new Headers();
    let status = 200;
    const res = {
      get statusCode() {
        return status;
      },
      set statusCode(code: number) {
        status = code;
      },
      setHeader(name: string, value: string | string[]) {
        if (typeof value === 'string') responseHeaders.set(name, value);
        else for (const item of value) responseHeaders.append(name, item);
      },
      once() {},
      end(body?: string) {
        resolve(new Response(body, { status, headers: responseHeaders }));
      },
    };
    handler(req as never, res as never).catch(reject);
  });
}

function jsonHeaders(original: Headers): Headers {
  const headers = new Headers(original);
  headers.set('content-type', 'application/json');
  headers.delete('content-length');
  return headers;
}

function successStatus(path: string | undefined): number {
  return (path && metas.get(path)?.successStatus) || 200;
}
