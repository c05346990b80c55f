import { randomUUID } from 'node:crypto';
import { userAgentOf, type RequestFacts } from '../audit/context';
import { clientAddress } from './client-address';

/** What the audit log keeps of a request: the address the edge resolved, the user agent, and the request's id. */
export function requestFacts(headers: Headers, requestId: string): RequestFacts {
  return { ip: clientAddress(headers), userAgent: userAgentOf(headers), requestId };
}

/**
 * A route whose answers carry X-Request-Id, as the public API's do, so that the id an
 * audit event names is the one its request answered with.
 */
export function withRequestId(handler: (req: Request, requestId: string) => Promise<Response>) {
  return async (req: Request): Promise<Response> => {
    const requestId = randomUUID();
    const response = await handler(req, requestId);
    try {
      response.headers.set('X-Request-Id', requestId);
      return response;
    } catch {
      // A response with immutable headers (one fetch made): copied with the header added.
      const headers = new Headers(response.headers);
      headers.set('X-Request-Id', requestId);
      return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
    }
  };
}
