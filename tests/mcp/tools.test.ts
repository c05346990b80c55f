import { afterAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { useApi } from '../support/api';
import { SCOPES, type Scope } from '../../server/keys/scopes';
import { mcpClient } from '../support/mcp';

const api = useApi();
const clients: Client[] = [];

afterAll(() => Promise.all(clients.map((client) => client.close())));

async function connect(scopes?: Scope[]) {
  const client = await mcpClient(api.server.baseUrl, await api.fixture.key({ scopes }));
  clients.push(client);
  return client;
}

const READ = [
  'list_statuses',
  'list_labels',
  'list_members',
  'list_tasks',
  'get_task',
  'list_comments',
  'get_attachment',
  'list_deleted_tasks',
  'list_projects',
];
const CREATE = ['create_task', 'create_tasks', 'upload_attachment', 'start_direct_upload', 'complete_direct_upload'];
const UPDATE = ['update_task', 'update_tasks', 'delete_task', 'add_comment'];
// Every key and app may read its own requests and who it is; the workspace's log and usage need their scopes.
const OWN = ['list_my_recent_requests', 'who_am_i'];
const LOG = ['list_requests', 'get_usage'];

describe('tools/list', () => {
  it('lists one tool per operation to a key with every scope', async () => {
    const { tools } = await (await connect([...SCOPES])).listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...READ, ...CREATE, ...UPDATE, ...OWN, ...LOG].sort());
  });

  it.each([
    [['task:read'], [...READ, ...OWN]],
    [['task:create'], [...CREATE, ...OWN]],
    [['task:update'], [...UPDATE, ...OWN]],
    [
      ['task:read', 'task:update'],
      [...READ, ...UPDATE, ...OWN],
    ],
    [
      ['requests:read', 'usage:read'],
      [...OWN, ...LOG],
    ],
  ] as const)('lists to a key with %j only the tools those scopes allow', async (scopes, names) => {
    const { tools } = await (await connect([...scopes])).listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...names].sort());
  });

  it('describes each input with the JSON Schema of the zod schema the REST API validates with', async () => {
    const { tools } = await (await connect()).listTools();
    const create = tools.find((tool) => tool.name === 'create_task')!;
    expect(create.inputSchema.required).toEqual(['title', 'projectSlug']);
    expect(create.inputSchema.properties).toMatchObject({
      title: { type: 'string', minLength: 1, maxLength: 500 },
      priority: { type: 'string', enum: ['none', 'low', 'medium', 'high', 'urgent'] },
      assigneeIds: { type: 'array', maxItems: 5 },
    });
    expect(create.inputSchema).toMatchObject({ additionalProperties: false });
    const list = tools.find((tool) => tool.name === 'list_tasks')!;
    expect(list.inputSchema.properties).toMatchObject({ limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 } });
    const upload = tools.find((tool) => tool.name === 'upload_attachment')!;
    expect(upload.inputSchema.required).toEqual(['content', 'filename', 'projectSlug', 'taskId']);
    expect(upload.inputSchema.properties).toMatchObject({ content: { type: 'string', contentEncoding: 'base64' } });
  });

  it('gives every tool an object output schema, self-contained, and hints that say what it changes', async () => {
    const { tools } = await (await connect()).listTools();
    for (const tool of tools) {
      expect(tool.outputSchema?.type).toBe('object');
      expect(JSON.stringify(tool.outputSchema)).not.toContain('$ref');
      expect(tool.description).toMatch(/scope (task|requests|usage):|Needs no scope/);
    }
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get('list_statuses')!.outputSchema!.required).toEqual(['statuses']);
    expect(byName.get('get_task')!.outputSchema!.properties).toHaveProperty('externalId');
    expect(byName.get('get_task')!.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(byName.get('delete_task')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
  });

  it('tells the agent how to use the tools when it connects', async () => {
    const client = await connect();
    expect(client.getServerVersion()?.name).toBe('task-api');
    expect(client.getInstructions()).toContain('list_statuses');
  });

  it('is pointed to from the API reference: the OpenAPI document the /docs page shows', async () => {
    const document = await (await fetch(`${api.server.baseUrl}/v1/public/openapi.json`)).json();
    expect(document.info.description).toContain('MCP server at `/v1/mcp`');
    expect(document.info.description).toContain('claude mcp add --transport http');
  });
});
