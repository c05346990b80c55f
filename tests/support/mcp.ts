import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** An MCP client connected to the app's /v1/mcp as an agent connects: the official SDK, the key as a Bearer header. */
export async function mcpClient(baseUrl: string, key: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'task-api-tests', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/v1/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}`, ...headers } },
  });
  await client.connect(transport);
  return client;
}

/** A tool call's result with the text a model reads. */
export async function callTool(client: Client, name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const [first] = result.content;
  return { ...result, text: first?.type === 'text' ? first.text : '' };
}

/** The first message of a session, as a client without the SDK sends it. */
export const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
});

/** A JSON-RPC message posted by hand, for what the SDK's client never sends. */
export function postMcp(baseUrl: string, body: BodyInit, headers: Record<string, string> = {}) {
  return fetch(`${baseUrl}/v1/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body,
  });
}
