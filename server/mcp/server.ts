// The low-level Server (deprecated by the SDK in favour of McpServer, kept for advanced
// use): tools/list and tools/call answer per key (scopes) and pass the arguments
// unparsed to the procedures, which validate them as the REST API does; McpServer
// would validate them first, with its own messages.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { admit, type RequestState } from '../api/access';
import { answerError, type PublicError } from '../api/errors';
import { checkedIdempotencyKey, claimRequest, requestFingerprint, settleRequest } from '../api/idempotency';
import {
  IDEMPOTENCY_KEY_ARGUMENT_DIFFERS,
  IDEMPOTENCY_KEY_ARGUMENT_INVALID,
  IDEMPOTENCY_KEY_IN_PROGRESS,
  IDEMPOTENCY_KEY_REUSED,
} from '../api/messages';
import { badRequest } from '../errors';
import { API_VERSION } from '../api/openapi';
import { publicRouter } from '../api/router';
import type { ApiPrincipal } from '../auth/api-key';
import { retryAfterSeconds } from '../ratelimit/limiter';
import { API_TOOLS, TOOLS_BY_NAME, type ApiTool } from './tools';

const INSTRUCTIONS = [
  "Tools for the Task API: the tasks, comments and attachments of a workspace's projects.",
  'Start with who_am_i (your workspace, scopes, the project you are limited to, your rate limit) and list_projects (the slugs you may use).',
  "Every tool on tasks takes `projectSlug`, the project's slug (e.g. `web`). Tasks are named by UUID or external ID (`WEB-12`).",
  'Learn the ids a task refers to first: list_statuses (statusId), list_members (assigneeIds), list_labels (labelIds).',
  "The tools listed are those the API key's scopes allow. Each HTTP request counts as one request against the key's rate limit, and each tool call beyond the first in a request as one more;",
  'a refused call is a tool error whose text is `<statusCode> <message>`; on 429 it says how many seconds to wait.',
  'list_my_recent_requests shows your own calls of the last 24 hours, failed ones with their message: look there to see why one failed.',
].join(' ');

/** What a tool call needs of the HTTP request that carries it. */
export interface McpRequest extends Pick<RequestState, 'requestId' | 'clientAddress' | 'headers' | 'answerMemory'> {
  /** The rate limit's decision on the POST, for the one call it counts for; undefined after. */
  takeCounted(): RequestState['counted'];
  /** The POST's Idempotency-Key header, when it carries one tools/call. */
  idempotencyKey: string | null;
  /** Told of each tool call once its result is settled, for the request log. */
  settled(call: SettledCall): void;
}

/** A tool call's outcome as the REST request it stands for would have answered. */
export interface SettledCall {
  tool: string;
  status: number;
  message: string | null;
  idempotencyKey: string | null;
  replayed: boolean;
  arrivedAt: Date;
  durationMs: number;
}

/**
 * An MCP server for one HTTP request of a key: it lists the tools the key's scopes
 * allow, and runs each call through the public router's own procedure, so the call
 * passes the same gate (key, rate limit, scope, project), validation, domain code
 * and error mapping as the REST request it stands for.
 */
export function createMcpServer(principal: ApiPrincipal, request: McpRequest): Server {
  const server = new Server(
    { name: 'task-api', title: 'Task API', version: API_VERSION },
    { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: API_TOOLS.filter((entry) => entry.scope === null || principal.scopes.includes(entry.scope)).map((entry) => entry.tool),
  }));
  server.setRequestHandler(CallToolRequestSchema, ({ params }) => {
    const entry = TOOLS_BY_NAME.get(params.name);
    if (!entry) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
    return callTool(entry, params.arguments ?? {}, request);
  });
  return server;
}

type Procedure = (input: unknown) => Promise<unknown>;

async function callTool(entry: ApiTool, args: Record<string, unknown>, request: McpRequest): Promise<CallToolResult> {
  const arrivedAt = new Date();
  const started = performance.now();
  // A fresh state per call: each is admitted, and counted, as one request of its own; the POST counted for the first.
  const state: RequestState = {
    requestId: request.requestId,
    clientAddress: request.clientAddress,
    headers: request.headers,
    answerMemory: request.answerMemory,
    counted: request.takeCounted(),
    resource: 'mcp',
  };
  const call: Answer = { status: entry.rest.successStatus, message: null, idempotencyKey: null };
  const result = await runTool(entry, args, request, state, call);
  request.settled({
    tool: entry.tool.name,
    ...call,
    replayed: state.replayed === true,
    arrivedAt,
    durationMs: performance.now() - started,
  });
  return result;
}

/** What the call answered, filled in as it runs. */
interface Answer {
  status: number;
  message: string | null;
  idempotencyKey: string | null;
}

async function runTool(
  entry: ApiTool,
  args: Record<string, unknown>,
  request: McpRequest,
  state: RequestState,
  call: Answer,
): Promise<CallToolResult> {
  const { idempotencyKey: argumentKey, ...rest } = args;
  // Only a write takes the key; any other tool refuses it as the unknown field it is.
  const input = entry.rest.write ? rest : args;
  try {
    const key = entry.rest.write ? retryKey(argumentKey, request.idempotencyKey) : null;
    call.idempotencyKey = key;
    if (key) {
      await admit(state, entry.scope!, input.projectSlug);
      const answered = await claimCall(entry, state, key, input, call);
      if (answered) return answered;
    }
    const caller = publicRouter.createCaller({ state, inlineFile: entry.inlineFile ? input : undefined });
    const [group, name] = entry.procedure.split('.') as [string, string];
    const procedure = (caller as unknown as Record<string, Record<string, Procedure>>)[group]![name]!;
    // The procedure's output is JSON already (its schema has no dates or classes): the structured
    // result is that value itself, not a second copy parsed back from the text.
    const result = (await procedure(input)) as Record<string, unknown>;
    const text = JSON.stringify(result);
    await settleRequest(state, { status: entry.rest.successStatus, body: text });
    return resultOf(entry, text, result);
  } catch (error) {
    const failure = answerError(error, 'mcp.tool_failed', { requestId: request.requestId, tool: entry.tool.name });
    await settleRequest(state, { status: failure.statusCode, body: JSON.stringify(failure) });
    return errorOf(failure, state, call);
  }
}

function resultOf(entry: ApiTool, text: string, result: unknown): CallToolResult {
  const structured = (entry.listKey ? { [entry.listKey]: result } : result) as Record<string, unknown>;
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

function errorOf(failure: PublicError, state: RequestState, call: Answer): CallToolResult {
  call.status = failure.statusCode;
  call.message = failure.message;
  return { isError: true, content: [{ type: 'text', text: errorText(failure, state) }] };
}

/** The call's Idempotency-Key: its argument, or the header of a POST that carries this one call. */
function retryKey(argument: unknown, header: string | null): string | null {
  if (argument === undefined) return header;
  const key = checkedIdempotencyKey(typeof argument === 'string' ? argument : '', IDEMPOTENCY_KEY_ARGUMENT_INVALID);
  if (header !== null && header !== key) throw badRequest(IDEMPOTENCY_KEY_ARGUMENT_DIFFERS);
  return key;
}

/**
 * Claims the key as the REST request the call stands for would (same fingerprint,
 * so a key means one change on either transport); a result when the call is
 * answered from the record instead of being made.
 */
async function claimCall(
  entry: ApiTool,
  state: RequestState,
  key: string,
  input: Record<string, unknown>,
  call: Answer,
): Promise<CallToolResult | null> {
  const params = entry.rest.path.match(/\{(\w+)\}/g)?.map((param) => param.slice(1, -1)) ?? [];
  const path = entry.rest.path.replace(/\{(\w+)\}/g, (_, param: string) => encodeURIComponent(String(input[param] ?? '')));
  const body = Object.fromEntries(Object.entries(input).filter(([field]) => !params.includes(field)));
  const outcome = await claimRequest(state, key, requestFingerprint(entry.rest.method, path, body), entry.rest.successStatus);
  switch (outcome.kind) {
    case 'claimed':
      return null;
    case 'replay':
      if (outcome.answer.status >= 400) return errorOf(JSON.parse(outcome.answer.body) as PublicError, state, call);
      call.status = outcome.answer.status;
      return resultOf(entry, outcome.answer.body, JSON.parse(outcome.answer.body));
    case 'mismatch':
      return errorOf({ statusCode: 422, message: IDEMPOTENCY_KEY_REUSED }, state, call);
    case 'in_progress':
      return errorOf({ statusCode: 409, message: IDEMPOTENCY_KEY_IN_PROGRESS }, state, call);
  }
}

/** `404 Task not found`; a 429 says how long to wait, as the REST answer's Retry-After does. */
function errorText(failure: PublicError, state: RequestState): string {
  const text = `${failure.statusCode} ${failure.message}`;
  if (failure.statusCode === 429 && state.rateLimit && !('unmetered' in state.rateLimit))
    return `${text}: retry after ${retryAfterSeconds(state.rateLimit)} seconds`;
  return text;
}
