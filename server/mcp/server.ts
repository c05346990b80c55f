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
import type { RequestState } from '../api/access';
import { answerError, type PublicError } from '../api/errors';
import { API_VERSION } from '../api/openapi';
import { publicRouter } from '../api/router';
import type { ApiPrincipal } from '../auth/api-key';
import { retryAfterSeconds } from '../ratelimit/limiter';
import { API_TOOLS, TOOLS_BY_NAME, type ApiTool } from './tools';

const INSTRUCTIONS = [
  "Tools for the Task API: the tasks, comments and attachments of a workspace's projects.",
  "Every tool takes `projectSlug`, the project's slug (e.g. `web`). Tasks are named by UUID or external ID (`WEB-12`).",
  'Learn the ids a task refers to first: list_statuses (statusId), list_members (assigneeIds), list_labels (labelIds).',
  "The tools listed are those the API key's scopes allow. Each HTTP request counts as one request against the key's rate limit, and each tool call beyond the first in a request as one more;",
  'a refused call is a tool error whose text is `<statusCode> <message>`; on 429 it says how many seconds to wait.',
].join(' ');

/** What a tool call needs of the HTTP request that carries it. */
export interface McpRequest extends Pick<RequestState, 'requestId' | 'clientAddress' | 'headers' | 'answerMemory'> {
  /** The rate limit's decision on the POST, for the one call it counts for; undefined after. */
  takeCounted(): RequestState['counted'];
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
    tools: API_TOOLS.filter((entry) => principal.scopes.includes(entry.scope)).map((entry) => entry.tool),
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
  // A fresh state per call: each is admitted, and counted, as one request of its own; the POST counted for the first.
  const state: RequestState = {
    requestId: request.requestId,
    clientAddress: request.clientAddress,
    headers: request.headers,
    answerMemory: request.answerMemory,
    counted: request.takeCounted(),
  };
  try {
    const caller = publicRouter.createCaller({ state, inlineFile: entry.inlineFile ? args : undefined });
    const [group, name] = entry.procedure.split('.') as [string, string];
    const procedure = (caller as unknown as Record<string, Record<string, Procedure>>)[group]![name]!;
    // The procedure's output is JSON already (its schema has no dates or classes): the structured
    // result is that value itself, not a second copy parsed back from the text.
    const result = (await procedure(args)) as Record<string, unknown>;
    const text = JSON.stringify(result);
    return { content: [{ type: 'text', text }], structuredContent: entry.listKey ? { [entry.listKey]: result } : result };
  } catch (error) {
    const failure = answerError(error, 'mcp.tool_failed', { requestId: request.requestId, tool: entry.tool.name });
    return { isError: true, content: [{ type: 'text', text: errorText(failure, state) }] };
  }
}

/** `404 Task not found`; a 429 says how long to wait, as the REST answer's Retry-After does. */
function errorText(failure: PublicError, state: RequestState): string {
  const text = `${failure.statusCode} ${failure.message}`;
  if (failure.statusCode === 429 && state.rateLimit && !('unmetered' in state.rateLimit))
    return `${text}: retry after ${retryAfterSeconds(state.rateLimit)} seconds`;
  return text;
}
