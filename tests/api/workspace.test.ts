import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../server/db/client';
import { useApi } from '../support/api';
import { apiClient, errorOf } from '../support/client';
import { createWorkspaceFixture } from '../support/fixtures';
import { callTool, mcpClient } from '../support/mcp';
import { connectApp, personSignedIn, restResource } from '../support/oauth';
import type { Me, ProjectList } from '../support/types';

const api = useApi();
const clients: Client[] = [];
afterAll(() => Promise.all(clients.map((client) => client.close())));

/** What no answer about a credential may hold: the key, its hash, a token. */
function expectNoSecret(text: string, secret: string) {
  expect(text).not.toContain(secret);
  expect(text).not.toMatch(/tk_[0-9a-f]{40}|tka_[A-Za-z0-9]{32}|[0-9a-f]{64}/);
}

describe('GET /me', () => {
  it('tells a key its workspace, scopes, expiry and what is left of its rate limit, never its secret', async () => {
    const key = await api.fixture.key({ name: 'Importer', scopes: ['task:read', 'audit:read'] });
    const client = apiClient(api.server.baseUrl, key);
    const first = await client.get('/me');
    const second = await client.get('/me');

    expect(first.status).toBe(200);
    const row = await db().apiKey.findFirstOrThrow({ where: { workspaceId: api.fixture.workspace.id, name: 'Importer' } });
    expect(first.body).toEqual({
      kind: 'api_key',
      id: row.id,
      name: 'Importer',
      workspace: { slug: api.fixture.workspace.slug, name: 'Acme' },
      scopes: ['task:read', 'audit:read'],
      project: null,
      expiresAt: null,
      createdAt: row.createdAt.toISOString(),
      rateLimit: { limit: 100_000, windowSeconds: 60, remaining: 99_999, resetAt: expect.any(String) },
    } satisfies Me);
    // Each call is counted, and says so.
    expect(second.body.rateLimit.remaining).toBe(99_998);
    expect(Number(second.headers.get('x-ratelimit-remaining'))).toBe(99_998);
    expectNoSecret(first.text, key);
  });

  it('tells a key limited to one project which one, and when it expires; it needs no scope', async () => {
    const expiresAt = new Date(Date.now() + 3_600_000);
    const { web } = api.fixture.projects;
    const key = await api.fixture.key({ scopes: ['task:create'], projectId: web.id, expiresAt });
    const me = await apiClient(api.server.baseUrl, key).get('/me');

    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      scopes: ['task:create'],
      project: { id: web.id, slug: 'web', name: 'Web' },
      expiresAt: expiresAt.toISOString(),
    });
  });

  it('answers an expired key 401, as every operation does', async () => {
    const key = await api.fixture.key({ name: 'Expiring', expiresAt: new Date(Date.now() + 60_000) });
    const client = apiClient(api.server.baseUrl, key);
    expect((await client.get('/me')).status).toBe(200);
    await db().apiKey.updateMany({ where: { name: 'Expiring' }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    const answer = await client.get('/me');

    expect(answer.status).toBe(401);
    expect(errorOf(answer).message).toBe('Invalid API key');
  });

  it("tells a connected app it is one, with its grant's scopes and its access token's expiry", async () => {
    const admin = await personSignedIn(api.server.baseUrl, api.fixture.workspace.id, 'admin');
    const connected = await connectApp(
      api.server.baseUrl,
      admin.cookie,
      { workspace: api.fixture.workspace.slug, scopes: ['task:read'], projectId: api.fixture.projects.api.id },
      { resource: restResource() },
    );
    const grant = await db().oauthGrant.findFirstOrThrow({ where: { clientId: connected.clientId }, select: { id: true } });
    const app = apiClient(api.server.baseUrl, connected.tokens.access_token);
    const me = await app.get('/me');

    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      kind: 'app',
      id: grant.id,
      name: 'Agent Desk',
      scopes: ['task:read'],
      project: { slug: 'api' },
    });
    const expiresIn = new Date(me.body.expiresAt!).getTime() - Date.now();
    expect(expiresIn).toBeGreaterThan(0);
    expect(expiresIn).toBeLessThanOrEqual(connected.tokens.expires_in * 1000);
    expectNoSecret(me.text, connected.tokens.access_token);
    // The app reaches its one project, as a key limited to it would.
    const projects = await app.get('/projects');
    expect(projects.body.projects.map((project) => project.slug)).toEqual(['api']);
  });
});

describe('GET /projects', () => {
  let workspaceKey: string;
  beforeAll(async () => {
    workspaceKey = await api.fixture.key({ scopes: ['task:read', 'task:create', 'task:update'] });
    const client = apiClient(api.server.baseUrl, workspaceKey);
    for (const title of ['One', 'Two', 'Three']) expect((await client.post('/web/tasks', { title })).status).toBe(201);
    const done = api.fixture.statuses.webDone.id;
    const last = await client.post('/web/tasks', { title: 'Four', statusId: done });
    expect(last.status).toBe(201);
  });

  it('lists the workspace’s projects by slug with their top-level task counts by category', async () => {
    const answer = await apiClient(api.server.baseUrl, workspaceKey).get('/projects');

    expect(answer.status).toBe(200);
    const { web, api: apiProject } = api.fixture.projects;
    expect(answer.body).toEqual({
      projects: [
        { id: apiProject.id, slug: 'api', name: 'API', keyPrefix: 'API', taskCounts: { total: 0, todo: 0, in_progress: 0, done: 0 } },
        { id: web.id, slug: 'web', name: 'Web', keyPrefix: 'WEB', taskCounts: { total: 4, todo: 3, in_progress: 0, done: 1 } },
      ],
      meta: { hasMore: false, nextCursor: null },
    } satisfies ProjectList);
    // The same totals the task list answers.
    const tasks = await apiClient(api.server.baseUrl, workspaceKey).get('/web/tasks?status=todo');
    expect(tasks.body.meta.total).toBe(3);
  });

  it('reads on page by page with meta.nextCursor, neither missing nor repeating a project', async () => {
    const client = apiClient(api.server.baseUrl, workspaceKey);
    const first = await client.get('/projects?limit=1');
    expect(first.body.projects.map((project) => project.slug)).toEqual(['api']);
    expect(first.body.meta.hasMore).toBe(true);
    const second = await client.get(`/projects?limit=1&after=${first.body.meta.nextCursor}`);
    expect(second.body.projects.map((project) => project.slug)).toEqual(['web']);
    expect(second.body.meta).toEqual({ hasMore: false, nextCursor: null });
  });

  it('lists to a key limited to one project that project alone', async () => {
    const key = await api.fixture.key({ scopes: ['task:read'], projectId: api.fixture.projects.web.id });
    const answer = await apiClient(api.server.baseUrl, key).get('/projects');

    expect(answer.status).toBe(200);
    expect(answer.body.projects.map((project) => project.slug)).toEqual(['web']);
  });

  it('refuses a key without task:read, naming the scope, and a cursor or limit it did not give', async () => {
    const writer = apiClient(api.server.baseUrl, await api.fixture.key({ scopes: ['task:create'] }));
    expect(errorOf(await writer.get('/projects'))).toEqual({ statusCode: 403, message: 'Missing required scope: task:read' });
    const client = apiClient(api.server.baseUrl, workspaceKey);
    expect(errorOf(await client.get('/projects?after=not*a*cursor'))).toEqual({
      statusCode: 400,
      message: 'after: must be a cursor from meta.nextCursor',
    });
    expect(errorOf(await client.get(`/projects?after=${Buffer.from('UPPER').toString('base64url')}`)).statusCode).toBe(400);
    expect(errorOf(await client.get('/projects?limit=101'))).toEqual({
      statusCode: 400,
      message: 'limit: must be a whole number from 1 to 100',
    });
  });

  it("never lists another workspace's projects", async () => {
    const other = await createWorkspaceFixture();
    const answer = await apiClient(api.server.baseUrl, await other.key()).get('/projects');
    expect(answer.body.projects.map((project) => project.id).sort()).toEqual([other.projects.api.id, other.projects.web.id].sort());
  });
});

describe('as MCP tools', () => {
  it('who_am_i and list_projects answer what the REST calls do, so an agent learns where it is first', async () => {
    const client = await mcpClient(api.server.baseUrl, api.key);
    clients.push(client);
    expect(client.getInstructions()).toContain('who_am_i');
    const me = await callTool(client, 'who_am_i', {});
    expect(me.isError).toBeFalsy();
    expect(me.structuredContent).toMatchObject({ kind: 'api_key', workspace: { slug: api.fixture.workspace.slug }, project: null });
    const projects = await callTool(client, 'list_projects', { limit: 1 });
    expect(projects.structuredContent).toMatchObject({ projects: [{ slug: 'api' }], meta: { hasMore: true } });
  });
});
