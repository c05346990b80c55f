/**
 * trpc-to-openapi's fetch adapter builds its route table (a regular expression per
 * procedure) again on every request; its Next.js adapter builds it once. This
 * drives the latter with a web Request, as the fetch adapter drives the same core:
 * the request stands in for Next's, with the method, path, query and parsed body
 * where that adapter reads them, and a small object stands in for Next's response.
 *
 * @fits trpc-to-openapi@3.3.0
 * Relies on: the Next adapter reading `req.query.trpc` (the path's segments),
 * `req.query`, `req.body`, `req.url`, `req.method` and `req.headers`, and writing
 * its answer through `res.statusCode`, `res.setHeader` and `res.end`.
 * Guarded by: every test in tests/api/, which all go through it.
 */

/** What a call hands the adapter; the body was parsed already, so the adapter is told it is JSON. */
export interface OpenApiCall {
  request: Request;
  method: string;
  /** The path below the API's prefix, as the router's templates match it. */
  path: string;
  query: URLSearchParams;
  body?: unknown;
}

type NextAdapterHandler = (req: never, res: never) => Promise<void>;

/** What the adapter answered: its status, its headers in the order set, and the body's JSON text. */
export interface AdapterAnswer {
  status: number;
  headers: [string, string][];
  body: string | undefined;
}

/** Runs `call` through `handler` (createOpenApiNextHandler's); `remember` sees the request object its context is made from. */
export function callThroughNextAdapter(
  handler: NextAdapterHandler,
  call: OpenApiCall,
  remember: (req: object) => void,
): Promise<AdapterAnswer> {
  const query: Record<string, string | string[]> = { trpc: call.path.split('/').filter(Boolean) };
  for (const name of new Set(call.query.keys())) {
    const values = call.query.getAll(name);
    if (name !== 'trpc') query[name] = values.length === 1 ? values[0]! : values;
  }
  let url = call.request.url;
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
  remember(req);

  return new Promise((resolve, reject) => {
    // Kept as pairs, not in a Headers: the answer's Response is built from them once.
    const responseHeaders: [string, string][] = [];
    let status = 200;
    const res = {
      get statusCode() {
        return status;
      },
      set statusCode(code: number) {
        status = code;
      },
      setHeader(name: string, value: string | string[]) {
        const lower = name.toLowerCase();
        for (let i = responseHeaders.length - 1; i >= 0; i--) if (responseHeaders[i]![0] === lower) responseHeaders.splice(i, 1);
        if (typeof value === 'string') responseHeaders.push([lower, value]);
        else for (const item of value) responseHeaders.push([lower, item]);
      },
      once() {},
      end(body?: string) {
        resolve({ status, headers: responseHeaders, body });
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
