import { randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { identify, type RequestState } from '../api/access';
import { answerError } from '../api/errors';
import { checkedIdempotencyKey } from '../api/idempotency';
import { BODY_NOT_JSON, missingScope, IDEMPOTENCY_KEY_BATCH, IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_INVALID } from '../api/messages';
import { badRequest } from '../errors';
import { createMcpServer, type SettledCall } from '../mcp/server';
import { TOOLS_BY_NAME } from '../mcp/tools';
import type { Scope } from '../keys/scopes';
import { MAX_INLINE_CONTENT_CHARS, MAX_UPLOAD_BYTES } from '../schemas/attachment';
import { challengeHeaders, insufficientScope, resourceMetadataUrl } from './challenge';
import { clientAddress } from './client-address';
import { boundedRoute, type Exchange } from './exchange';
import { hasAtMostValues } from './json-body';
import { recordAnswers, type Answered } from './record-request';
import { errorResponse, preflightResponse, responseHeaders } from './respond';

export const MCP_PATH = '/v1/mcp';

// Room for upload_attachment's largest file as base64, plus the JSON-RPC envelope around it.
const MCP_ENVELOPE_BYTES = 64 * 1024;
export const MAX_MCP_BODY_BYTES = MAX_INLINE_CONTENT_CHARS + MCP_ENVELOPE_BYTES;
const MCP_BODY_TOO_LARGE =
  `Request body too large: the limit is ${MAX_MCP_BODY_BYTES} bytes, room for one upload_attachment ` +
  `of ${MAX_UPLOAD_BYTES} bytes (10 MB) as base64`;
// A tool's answer is held as the rows read, as its JSON text, and the library writes both that
// text (escaped) and the structured result into the message's JSON: four copies of its text.
const MCP_ANSWER_COPIES = 4;
// A batch of tool calls holds a few hundred values; millions of tiny ones would take the heap.
const MAX_MCP_JSON_VALUES = 10_000;
const MCP_TOO_MANY_VALUES = `Request body holds more than ${MAX_MCP_JSON_VALUES} JSON values`;
const ALLOW = 'POST, OPTIONS';
const PREFLIGHT_HEADERS = 'Authorization, X-API-Key, Content-Type, Idempotency-Key, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID';

/**
 * `/v1/mcp`: the MCP server, over Streamable HTTP without sessions. Every POST
 * carries one JSON-RPC message (or a batch) and is answered with JSON. The key is
 * checked from the headers, and the POST counted against its rate limit, before a
 * byte of the body is read, as on /v1/public: a missing, bad, revoked or expired
 * key answers 401 with `WWW-Authenticate: Bearer`, past the per-address limit 429,
 * past the key's own limit 429. Only then is the body read, bounded in size, time
 * and the process's body budget; the tool calls' answers are counted in the answer
 * budget until the whole message has been written (exchange.ts). No stream is
 * offered, so GET answers 405 as the transport's specification allows; so does
 * DELETE, with no session to end. Every answer leaves through here, where the
 * request log records each tool call (record-request.ts).
 */
export const handleMcpRequest = boundedRoute(async (req, exchange) => {
  const arrivedAt = new Date();
  const started = performance.now();
  const state: RequestState = {
    requestId: randomUUID(),
    clientAddress: clientAddress(req.headers),
    headers: req.headers,
    answerMemory: exchange.answerMemory(MCP_ANSWER_COPIES),
    resource: 'mcp',
  };
  const calls: SettledCall[] = [];
  const answer = await answerMcpRequest(req, exchange, state, calls);
  // Each tool call is recorded as the request it stands for; a POST that made none, as itself.
  const answers: Answered[] = calls.map((call) => ({
    method: 'POST',
    route: `tools/call ${call.tool}`,
    path: MCP_PATH,
    status: call.status,
    arrivedAt: call.arrivedAt,
    durationMs: call.durationMs,
    idempotencyKey: call.idempotencyKey,
    replayed: call.replayed,
    message: call.message,
  }));
  if (answers.length === 0 && req.method === 'POST') {
    answers.push({
      method: 'POST',
      route: MCP_PATH,
      path: MCP_PATH,
      status: answer.status,
      arrivedAt,
      durationMs: performance.now() - started,
      idempotencyKey: null,
      replayed: false,
      message: state.errorMessage ?? null,
    });
  }
  recordAnswers(state, req.headers, answers);
  return answer;
});

async function answerMcpRequest(req: Request, exchange: Exchange, state: RequestState, calls: SettledCall[]): Promise<Response> {
  const { answerMemory } = state;
  if (req.method === 'OPTIONS') return preflightResponse(state, ALLOW, PREFLIGHT_HEADERS);
  if (req.method !== 'POST') {
    return errorResponse(state, { statusCode: 405, message: `Method ${req.method} is not allowed here; use POST` }, { Allow: ALLOW });
  }
  try {
    const principal = await identify(state);
    // Only the parsed message is kept: the bytes and their text can go while the call runs.
    const message = parseMessage(await exchange.readBody(req, MAX_MCP_BODY_BYTES, MCP_BODY_TOO_LARGE));
    const stepUp = principal.kind === 'grant' ? scopeToAskFor(message, principal.scopes) : null;
    if (stepUp)
      return errorResponse(
        state,
        { statusCode: 403, message: missingScope(stepUp) },
        insufficientScope(resourceMetadataUrl(req.url, 'mcp'), stepUp),
      );
    const idempotencyKey = req.headers.get(IDEMPOTENCY_KEY_HEADER);
    if (idempotencyKey !== null) {
      checkedIdempotencyKey(idempotencyKey, IDEMPOTENCY_KEY_INVALID);
      if (Array.isArray(message)) throw badRequest(IDEMPOTENCY_KEY_BATCH);
    }

    // The POST was counted: its first tool call is not counted again.
    let counted = state.rateLimit;
    const server = createMcpServer(principal, {
      requestId: state.requestId,
      clientAddress: state.clientAddress,
      headers: req.headers,
      answerMemory,
      idempotencyKey,
      settled: (call) => calls.push(call),
      takeCounted: () => {
        const decision = counted;
        counted = undefined;
        return decision;
      },
    });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      const response = await transport.handleRequest(req, { parsedBody: message });
      const headers = new Headers(response.headers);
      for (const [name, value] of Object.entries(responseHeaders(state, response.status))) headers.set(name, value);
      return new Response(response.body, { status: response.status, headers });
    } finally {
      await server.close();
    }
  } catch (error) {
    const failure = answerError(error, 'mcp.request_failed', { requestId: state.requestId });
    return errorResponse(state, failure, challengeHeaders(req.url, state, failure.statusCode));
  }
}

/** The scope the one tools/call of a message needs and `scopes` lack, or null. */
function scopeToAskFor(message: unknown, scopes: readonly Scope[]): Scope | null {
  if (Array.isArray(message) || typeof message !== 'object' || message === null) return null;
  const { method, params } = message as { method?: unknown; params?: { name?: unknown } };
  if (method !== 'tools/call' || typeof params?.name !== 'string') return null;
  const entry = TOOLS_BY_NAME.get(params.name);
  return entry && entry.scope !== null && !scopes.includes(entry.scope) ? entry.scope : null;
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
