import { PreconditionFailedError } from './errors.js';
import { OPERATIONS } from './generated/operations.js';
import { pageCall } from './pagination.js';
import type { Exchange, LastResponse, RequestOptions, Transport } from './transport.js';
import type { Resources } from './types.js';

/** An operation as the generated table describes it (scripts/generate.ts). */
interface Spec {
  id: string;
  method: string;
  path: string;
  params: Readonly<Record<string, string>>;
  query: readonly string[];
  body: 'json' | 'multipart' | null;
  response: 'json' | 'stream';
  items?: string;
}
type Params = Record<string, unknown>;

/** Builds a method for every operation of the generated table: `api.<namespace>.<method>(params, options)`. */
export function buildResources(transport: Transport): Resources {
  const specs: Spec[] = Object.values(OPERATIONS).flatMap((methods) => Object.values(methods) as Spec[]);
  const readers = new Map(specs.filter((spec) => spec.method === 'GET').map((spec) => [spec.path, spec]));
  const call = async (spec: Spec, params: Params = {}, options: RequestOptions = {}): Promise<unknown> => {
    try {
      const answer = await transport.send(exchangeOf(spec, params), options);
      return answer instanceof Response ? answer : withResponse(answer.body, answer.lastResponse);
    } catch (error) {
      // As the 412 says the copy held is stale, the error carries the current one, read at the same path.
      const reader = readers.get(spec.path);
      if (error instanceof PreconditionFailedError && reader) {
        error.current = await call(reader, pathParams(spec, params), { signal: options.signal }).catch(() => undefined);
      }
      throw error;
    }
  };

  const resources: Record<string, Record<string, unknown>> = {};
  for (const [namespace, methods] of Object.entries(OPERATIONS)) {
    const group: Record<string, unknown> = (resources[namespace] = {});
    for (const [name, spec] of Object.entries(methods) as [string, Spec][]) {
      group[name] = spec.items
        ? (params: Params = {}, options: RequestOptions = {}) =>
            pageCall(spec.items!, (after) => call(spec, after === undefined ? params : { ...params, page: undefined, after }, options))
        : (params?: Params, options?: RequestOptions) => call(spec, params, options);
    }
  }
  return resources as Resources;
}

/** The request of an operation: its path with the path parameters, the query parameters, and the other parameters as its body. */
function exchangeOf(spec: Spec, params: Params): Exchange {
  let path: string = spec.path;
  const rest: Params = { ...params };
  for (const [name, documented] of Object.entries(spec.params) as [string, string][]) {
    const value = rest[name];
    if (typeof value !== 'string' || value === '') throw new TypeError(`${spec.id}: ${name} is required`);
    path = path.replace(`{${documented}}`, encodeURIComponent(value));
    delete rest[name];
  }
  const query = new URLSearchParams();
  for (const name of spec.query) {
    if (rest[name] !== undefined && rest[name] !== null) query.set(name, String(rest[name]));
    delete rest[name];
  }
  if (query.size > 0) path += `?${query}`;
  const exchange: Exchange = { operation: spec.id, method: spec.method, path, read: spec.response === 'stream' ? 'stream' : 'json' };
  const fields = Object.entries(rest).filter(([, value]) => value !== undefined);
  if (spec.body === 'json') {
    exchange.headers = { 'content-type': 'application/json' };
    exchange.body = JSON.stringify(Object.fromEntries(fields));
  } else if (spec.body === 'multipart') {
    const form = new FormData();
    for (const [name, value] of fields) {
      if (value instanceof Blob) form.append(name, value, value instanceof File ? value.name : 'file');
      else form.append(name, String(value));
    }
    exchange.body = form;
  } else if (fields.length > 0) {
    throw new TypeError(`${spec.id}: takes no ${fields.map(([name]) => name).join(', ')}`);
  }
  return exchange;
}

function pathParams(spec: Spec, params: Params): Params {
  return Object.fromEntries(Object.keys(spec.params).map((name) => [name, params[name]]));
}

/** The body with its answer as a property that JSON.stringify and console.log leave out, as Stripe's objects carry theirs. */
export function withResponse<T>(body: T, lastResponse: LastResponse): T {
  if (body !== null && typeof body === 'object') Object.defineProperty(body, 'lastResponse', { value: lastResponse, enumerable: false });
  return body;
}
