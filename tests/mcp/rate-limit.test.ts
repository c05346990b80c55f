import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { settleKeyUsage } from '../../server/auth/last-used';
import { apiClient } from '../support/client';
import { createWorkspaceFixture, type WorkspaceFixture } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/http';
import { awayFromWindowEdge } from '../support/limit-window';
import { mcpClient, postMcp } from '../support/mcp';

// Read by env() on first use, which comes after these lines: a small limit, kept in memory.
process.env.RATE_LIMIT_PER_MINUTE = '3';
delete process.env.REDIS_URL;
delete process.env.UPSTASH_REDIS_REST_URL;
delete process.env.UPSTASH_REDIS_REST_TOKEN;

let server: TestServer;
let fixture: WorkspaceFixture;
let key: string;

beforeAll(async () => {
  server = await startTestServer();
  fixture = await createWorkspaceFixture();
});

beforeEach(async () => {
  key = await fixture.key();
  await awayFromWindowEdge();
});

afterAll(async () => {
  await settleKeyUsage();
  await server.close();
});

const call = (id: number, name: string, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});
const post = (message: unknown) => postMcp(server.baseUrl, JSON.stringify(message), { authorization: `Bearer ${key}` });

it('counts every POST as one request of the key, shared with REST: connecting and listing the tools too', async () => {
  // initialize, notifications/initialized, tools/list: three POSTs.
  const client = await mcpClient(server.baseUrl, key);
  await client.listTools();

  const refused = await post(call(1, 'list_statuses', { projectSlug: 'web' }));

  expect(refused.status).toBe(429);
  expect(await refused.json()).toEqual({ statusCode: 429, message: 'Too many requests' });
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
  expect((await apiClient(server.baseUrl, key).get('/web/statuses')).status).toBe(429);
  await client.close();
});

it('counts a tool call with the POST that carries it: one request each, a refused call too', async () => {
  const first = await post(call(1, 'list_statuses', { projectSlug: 'web' }));
  expect(first.status).toBe(200);
  expect(first.headers.get('x-ratelimit-remaining')).toBe('2');
  const missing = await post(call(2, 'get_task', { projectSlug: 'web', taskId: 'WEB-404' }));
  expect(((await missing.json()) as { result: { content: { text: string }[] } }).result.content[0]!.text).toBe('404 Task not found');
  expect((await apiClient(server.baseUrl, key).get('/web/statuses')).status).toBe(200);

  expect((await post(call(3, 'list_statuses', { projectSlug: 'web' }))).status).toBe(429);
});

it('counts each call of a batch beyond the first, and refuses those past the limit as tool errors with the delay', async () => {
  const answer = await post([1, 2, 3, 4].map((id) => call(id, 'list_statuses', { projectSlug: 'web' })));

  expect(answer.status).toBe(200);
  const results = ((await answer.json()) as { id: number; result: { isError?: boolean; content: { text: string }[] } }[]).sort(
    (a, b) => a.id - b.id,
  );
  expect(results.filter((entry) => !entry.result.isError)).toHaveLength(3);
  const [refused] = results.filter((entry) => entry.result.isError);
  const [, seconds] = /^429 Too many requests: retry after (\d+) seconds$/.exec(refused!.result.content[0]!.text) ?? [];
  expect(Number(seconds)).toBeGreaterThanOrEqual(1);
  expect(Number(seconds)).toBeLessThanOrEqual(60);
});
