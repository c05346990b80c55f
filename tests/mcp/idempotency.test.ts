import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleKeyUsage } from '../../server/auth/last-used';
import { db } from '../../server/db/client';
import { useApi } from '../support/api';
import { callTool, mcpClient, postMcp } from '../support/mcp';

const api = useApi();
let mcp: Client;

beforeAll(async () => {
  mcp = await mcpClient(api.server.baseUrl, api.key);
});

afterAll(async () => {
  await mcp.close();
  await settleKeyUsage();
});

const tasksTitled = (title: string) => db().task.count({ where: { title } });
const toolCall = (args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'create_task', arguments: args },
});
const post = (message: unknown, headers: Record<string, string> = {}) =>
  postMcp(api.server.baseUrl, JSON.stringify(message), { authorization: `Bearer ${api.key}`, ...headers });

describe('idempotencyKey on the write tools', () => {
  it('is offered by every write tool, and by no other', async () => {
    const { tools } = await mcp.listTools();
    // The request log's lists take one too, as the filter that finds the requests sent with a key.
    const logFilters = ['list_requests', 'list_my_recent_requests'];
    const takesKey = tools
      .filter((tool) => 'idempotencyKey' in (tool.inputSchema.properties ?? {}) && !logFilters.includes(tool.name))
      .map((tool) => tool.name);

    expect(takesKey.sort()).toEqual([
      'add_comment',
      'complete_direct_upload',
      'create_task',
      'create_tasks',
      'start_direct_upload',
      'update_task',
      'update_tasks',
      'upload_attachment',
    ]);
  });

  it('makes a call sent twice create one task, the second answered with the first result', async () => {
    const idempotencyKey = randomUUID();
    const first = await callTool(mcp, 'create_task', { projectSlug: 'web', title: 'Once by MCP', idempotencyKey });
    const again = await callTool(mcp, 'create_task', { projectSlug: 'web', title: 'Once by MCP', idempotencyKey });

    expect(again.text).toBe(first.text);
    expect(again.structuredContent).toEqual(first.structuredContent);
    expect(await tasksTitled('Once by MCP')).toBe(1);
  });

  it('refuses the same key with other arguments as a 422 tool error, writing nothing', async () => {
    const idempotencyKey = randomUUID();
    await callTool(mcp, 'create_task', { projectSlug: 'web', title: 'First meaning', idempotencyKey });
    const other = await callTool(mcp, 'create_task', { projectSlug: 'web', title: 'Second meaning', idempotencyKey });

    expect([other.isError, other.text]).toEqual([true, '422 Idempotency-Key was already used for a different request']);
    expect(await tasksTitled('Second meaning')).toBe(0);
  });

  it('means the same change over REST and MCP: a create sent by REST is answered, not made again, by the tool', async () => {
    const idempotencyKey = randomUUID();
    const rest = await api.client.post('/web/tasks', { title: 'Either way' }, { 'idempotency-key': idempotencyKey });
    const tool = await callTool(mcp, 'create_task', { projectSlug: 'web', title: 'Either way', idempotencyKey });

    expect(tool.structuredContent).toEqual(rest.body);
    expect(await tasksTitled('Either way')).toBe(1);
  });

  it('refuses a key that is not 1 to 255 printable ASCII characters, naming the argument', async () => {
    const refused = await callTool(mcp, 'create_task', { projectSlug: 'web', title: 'Odd key', idempotencyKey: 'tab\there' });

    expect([refused.isError, refused.text]).toEqual([true, '400 idempotencyKey: must be 1 to 255 printable ASCII characters']);
    expect(await tasksTitled('Odd key')).toBe(0);
  });
});

describe('the Idempotency-Key header on /v1/mcp', () => {
  it('applies to the one tools/call its POST carries', async () => {
    const headers = { 'idempotency-key': randomUUID() };
    const first = await (await post(toolCall({ projectSlug: 'web', title: 'Once by header' }), headers)).json();
    const again = await (await post(toolCall({ projectSlug: 'web', title: 'Once by header' }), headers)).json();

    expect(again).toEqual(first);
    expect(await tasksTitled('Once by header')).toBe(1);
  });

  it('is refused with 400 on a batch, whose calls each name their own key', async () => {
    const answer = await post([toolCall({ projectSlug: 'web', title: 'Batched' })], { 'idempotency-key': randomUUID() });

    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({
      statusCode: 400,
      message: 'Idempotency-Key: the header names one tools/call; give each call of a batch its own idempotencyKey argument',
    });
    expect(await tasksTitled('Batched')).toBe(0);
  });
});
