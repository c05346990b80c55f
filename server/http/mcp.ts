import { randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { identify, type RequestState } from '../api/access';
import { answerError } from '../api/errors';
import { BODY_NOT_JSON } from '../api/messages';
import { AppError, badRequest } from '../errors';
import { createMcpServer } from '../mcp/server';
import { MAX_INLINE_CONTENT_CHARS, MAX_UPLOAD_BYTES } from '../schemas/attachment';
import { readLimitedBody } from './body';
import { clientAddress } from './client-address';
import { hasAtMostValues } from './json-body';
import { errorResponse, preflightResponse, responseHeaders } from './respond';

export const MCP_PATH = '/v1/mcp';

// Room for upload_attachment's largest file as base64, plus the JSON-RPC envelope around it.
const MCP_ENVELOPE_BYTES = 64 * 1024;
export const MAX_MCP_BODY_BYTES = MAX_INLINE_CONTENT_CHARS + MCP_ENVELOPE_BYTES;
const MCP_BODY_TOO_LARGE =
  `Request body too large: the limit is ${MAX_MCP_BODY_BYTES} bytes, room for one upload_attachment ` +
  `of ${MAX_UPLOAD_BYTES} bytes (10 MB) as base64`;
// A batch of tool calls holds a few hundred values; millions of tiny ones would take the heap.
const MAX_MCP_JSON_VALUES = 10_000;
const MCP_TOO_MANY_VALUES = `Request body holds more than ${MAX_MCP_JSON_VALUES} JSON values`;
const ALLOW = 'POST, OPTIONS';
const PREFLIGHT_HEADERS = 'Authorization, X-API-Key, Content-Type, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID';

/**
 * `/v1/mcp`: the MCP server, over Streamable HTTP without sessions. Every POST
 * carries one JSON-RPC message (or a batch) and is answered with JSON. The key is
 * checked from the headers before a byte of the body is read, as on /v1/public:
 * a missing, bad, revoked or expired key answers 401 with `WWW-Authenticate:
 * Bearer`, past the per-address limit 429. Only then is the body read, bounded in
 * size and in the process's body budget. No stream is offered, so GET answers 405
 * as the transport's specification allows; so does DELETE, with no session to end.
 */
export async function handleMcpRequest(req: Request): Promise<Response> {
  const state: RequestState = { requestId: randomUUID(), clientAddress: clientAddress(req.headers), headers: req.headers };
  if (req.method === 'OPTIONS') return preflightResponse(state, ALLOW, PREFLIGHT_HEADERS);
  if (req.method !== 'POST') {
    return errorResponse(state, { statusCode: 405, message: `Method ${req.method} is not allowed here; use POST` }, { Allow: ALLOW });
  }
  let releaseBody: (() => void) | undefined;
  try {
    const principal = await identify(state);
    const held = await readLimitedBody(req, MAX_MCP_BODY_BYTES).catch((error: unknown) => {
      throw error instanceof AppError && error.kind === 'payload_too_large' ? new AppError('payload_too_large', MCP_BODY_TOO_LARGE) : error;
    });
    releaseBody = held.release;
    // Only the parsed message is kept: the bytes and their text can go while the call runs.
    const message = parseMessage(held.bytes);

    const server = createMcpServer(principal, { requestId: state.requestId, clientAddress: state.clientAddress, headers: req.headers });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      const response = await transport.handleRequest(req, { parsedBody: message });
      const headers = new Headers(response.headers);
      for (const [name, value] of Object.entries(responseHeaders(state, response.status))) headers.set(name, value);
      return new Response(response.body && (await response.arrayBuffer()), { status: response.status, headers });
    } finally {
      await server.close();
    }
  } catch (error) {
    return errorResponse(state, answerError(error, 'mcp.request_failed', { requestId: state.requestId }));
  } finally {
    releaseBody?.();
  }
}

function parseMessage(bytes: Buffer): unknown {
  const text = new TextDecoder().decode(bytes);
  if (!hasAtMostValues(text, MAX_MCP_JSON_VALUES)) throw badRequest(MCP_TOO_MANY_VALUES);
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest(BODY_NOT_JSON);
  }
}
