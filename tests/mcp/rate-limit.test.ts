import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { settleKeyUsage } from '../../server/auth/last-used';
import { apiClient } from '../support/client';
import { createWorkspaceFixture, type WorkspaceFixture } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/http';
import { awayFromWindowEdge } from '../support/limit-window';
import { callTool, mcpClient } from '../support/mcp';
import { OPERATIONS } from '../support/operations';

// Read by env() on first use, which comes after these lines: a small limit, kept in memory.
process.env.RATE_LIMIT_PER_MINUTE = '3';
delete process.env.REDIS_URL;
delete process.env.UPSTASH_REDIS_REST_URL;
delete process.env.UPSTASH_REDIS_REST_TOKEN;

let server: TestServer;
let fixture: WorkspaceFixture;
let client: Client;
let key: string;

beforeAll(async () => {
  server = await startTestServer();
  fixture = await createWorkspaceFixture();
  key = await fixture.key();
  await awayFromWindowEdge();
  // Connecting and listing tools call no operation: they do not count.
  client = await mcpClient(server.baseUrl, key);
  await client.listTools();
});

afterAll(async () => {
  await client.close();
  await settleKeyUsage();
  await server.close();
});

it('counts every tool call as one request of the key, shared with REST, and refuses past the limit with the delay', async () => {
  expect((await callTool(client, 'list_statuses', { projectSlug: 'web' })).isError).toBeFalsy();
  // A refused call counts too, as a refused REST request does.
  expect((await callTool(client, 'get_task', { projectSlug: 'web', taskId: 'WEB-404' })).text).toBe('404 Task not found');
  expect((await apiClient(server.baseUrl, key).get('/web/statuses')).status).toBe(200);

  const refused = await callTool(client, 'list_statuses', { projectSlug: 'web' });

  expect(refused.isError).toBe(true);
  const [, seconds] = /^429 Too many requests: retry after (\d+) seconds$/.exec(refused.text) ?? [];
  expect(Number(seconds)).toBeGreaterThanOrEqual(1);
  expect(Number(seconds)).toBeLessThanOrEqual(60);
  const rest = await apiClient(server.baseUrl, key).get('/web/statuses');
  expect(rest.status).toBe(429);
  // The tool list needs no operation: it is still served, to a key over its limit.
  expect((await client.listTools()).tools).toHaveLength(OPERATIONS.length);
});
