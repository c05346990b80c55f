import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../server/db/client';
import { flushRequestLog } from '../../server/request-log/flush';
import { apiClient } from '../support/client';
import { createWorkspaceFixture, type WorkspaceFixture } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/http';
import { createPerson, settingsClient, signIn } from '../support/settings';

let server: TestServer;
let fx: WorkspaceFixture;
let other: WorkspaceFixture;

async function signedIn(fixture: WorkspaceFixture, role: 'owner' | 'admin' | 'member') {
  const person = await createPerson(fixture.workspace.id, role);
  return settingsClient(server.baseUrl, { cookie: (await signIn(server.baseUrl, person.email, person.password)).cookie });
}

beforeAll(async () => {
  server = await startTestServer();
  [fx, other] = await Promise.all([createWorkspaceFixture(), createWorkspaceFixture()]);
});
afterAll(() => server.close());

describe('settings router: the Requests page', () => {
  it("lists the workspace's requests with the key's name to an admin, filtered as the URL says", async () => {
    const client = apiClient(server.baseUrl, await fx.key({ name: 'Importer' }));
    const missing = await client.get('/web/tasks/WEB-999999');
    await client.get('/web/statuses');
    await flushRequestLog();
    const admin = await signedIn(fx, 'admin');
    const listed = await admin.query('requests.list', { workspace: fx.workspace.slug, status: '4xx' });
    expect(listed.status).toBe(200);
    expect(listed.data.requests).toMatchObject([
      { requestId: missing.headers.get('x-request-id'), status: 404, message: 'Task not found', by: 'Importer' },
    ]);
    const byId = await admin.query('requests.list', { workspace: fx.workspace.slug, requestId: missing.headers.get('x-request-id') });
    expect(byId.data.requests).toHaveLength(1);
    expect((await admin.query('requests.list', { workspace: fx.workspace.slug, status: 'bad' })).status).toBe(400);
  });

  it('filters by key or app, method, route and time, and names every key and app of the workspace only', async () => {
    const [reader, writer] = await Promise.all([fx.key({ name: 'Reader' }), fx.key({ name: 'Writer' })]);
    const idOf = async (name: string) => (await db().apiKey.findFirstOrThrow({ where: { workspaceId: fx.workspace.id, name } })).id;
    const before = new Date().toISOString();
    await apiClient(server.baseUrl, reader).get('/web/statuses');
    await apiClient(server.baseUrl, reader).get('/web/tasks/WEB-999998');
    await apiClient(server.baseUrl, writer).patch('/web/tasks/WEB-999998', { title: 'Renamed' });
    await apiClient(server.baseUrl, await other.key({ name: 'Elsewhere' })).get('/web/tasks/WEB-999998');
    await flushRequestLog();
    const admin = await signedIn(fx, 'admin');
    const list = (filters: Record<string, string>) =>
      admin.query('requests.list', { workspace: fx.workspace.slug, since: before, ...filters }).then((answer) => answer.data);

    const byReader = await list({ principal: await idOf('Reader') });
    expect(byReader.requests.map((request) => [request.method, request.path, request.by])).toEqual([
      ['GET', '/v1/public/web/tasks/WEB-999998', 'Reader'],
      ['GET', '/v1/public/web/statuses', 'Reader'],
    ]);
    expect(byReader.principals.map((entry) => entry.name)).toEqual(expect.arrayContaining(['Reader', 'Writer']));
    expect(byReader.principals.map((entry) => entry.name)).not.toContain('Elsewhere');
    const patched = await list({ method: 'PATCH' });
    expect(patched.requests.map((request) => [request.by, request.status])).toEqual([['Writer', 404]]);
    const byRoute = await list({ route: '/v1/public/{projectSlug}/tasks/{taskId}' });
    expect(byRoute.requests.map((request) => request.method)).toEqual(['PATCH', 'GET']);
    expect((await list({ until: before })).requests).toEqual([]);
    expect(
      (await list({ principal: await idOf('Reader'), method: 'GET', route: '/v1/public/{projectSlug}/statuses' })).requests,
    ).toHaveLength(1);
    expect((await admin.query('requests.list', { workspace: fx.workspace.slug, method: 'PUT' })).status).toBe(400);
  });

  it("opens a request by its X-Request-Id with every recorded field, never another workspace's", async () => {
    const key = await fx.key({ name: 'Detailed' });
    const answer = await apiClient(server.baseUrl, key).post(
      '/web/tasks',
      { title: 'Twice' },
      { 'Idempotency-Key': 'detail-1', 'User-Agent': 'detail-test/1.0' },
    );
    const replay = await apiClient(server.baseUrl, key).post(
      '/web/tasks',
      { title: 'Twice' },
      { 'Idempotency-Key': 'detail-1', 'User-Agent': 'detail-test/1.0' },
    );
    const foreign = await apiClient(server.baseUrl, await other.key()).get('/web/statuses');
    await flushRequestLog();
    const admin = await signedIn(fx, 'admin');
    const detail = await admin.query('requests.get', { workspace: fx.workspace.slug, requestId: replay.headers.get('x-request-id') });
    expect(detail.status).toBe(200);
    expect(detail.data.requests).toEqual([
      {
        requestId: replay.headers.get('x-request-id'),
        occurredAt: expect.any(String),
        keyId: (await db().apiKey.findFirstOrThrow({ where: { workspaceId: fx.workspace.id, name: 'Detailed' } })).id,
        appId: null,
        by: 'Detailed',
        method: 'POST',
        route: '/v1/public/{projectSlug}/tasks',
        path: '/v1/public/web/tasks',
        status: 201,
        durationMs: expect.any(Number),
        idempotencyKey: 'detail-1',
        replayed: true,
        ip: expect.any(String),
        userAgent: 'detail-test/1.0',
        message: null,
      },
    ]);
    expect(answer.headers.get('x-request-id')).not.toBe(replay.headers.get('x-request-id'));
    const elsewhere = await admin.query('requests.get', { workspace: fx.workspace.slug, requestId: foreign.headers.get('x-request-id') });
    expect(elsewhere.data.requests).toEqual([]);
  });

  it("groups the range's errors by route, status and message with exact counts, the most frequent first", async () => {
    const key = await fx.key({ name: 'Failing' });
    const client = apiClient(server.baseUrl, key);
    const since = new Date().toISOString();
    for (let i = 0; i < 3; i += 1) await client.get('/web/tasks/WEB-999997');
    await client.get('/web/statuses');
    await client.post('/web/tasks', {});
    const last = await client.patch('/web/tasks/WEB-999997', { title: 'Gone' });
    for (let i = 0; i < 4; i += 1) await apiClient(server.baseUrl, await other.key()).get('/web/tasks/WEB-999997');
    await flushRequestLog();
    const admin = await signedIn(fx, 'admin');
    const errors = await admin.query('requests.errors', { workspace: fx.workspace.slug, since });
    expect(errors.status).toBe(200);
    expect(errors.data.groups.map(({ lastSeen: _, ...group }) => group)).toEqual([
      { method: 'GET', route: '/v1/public/{projectSlug}/tasks/{taskId}', status: 404, message: 'Task not found', count: 3 },
      { method: 'PATCH', route: '/v1/public/{projectSlug}/tasks/{taskId}', status: 404, message: 'Task not found', count: 1 },
      { method: 'POST', route: '/v1/public/{projectSlug}/tasks', status: 400, message: expect.any(String), count: 1 },
    ]);
    const [patch] = (await admin.query('requests.list', { workspace: fx.workspace.slug, since, method: 'PATCH' })).data.requests;
    expect(patch?.requestId).toBe(last.headers.get('x-request-id'));
    expect(errors.data.groups[1]?.lastSeen).toBe(patch?.occurredAt);
    const narrowed = await admin.query('requests.errors', { workspace: fx.workspace.slug, since, method: 'GET', status: '4xx' });
    expect(narrowed.data.groups.map((group) => group.count)).toEqual([3]);
    const strangers = await signedIn(other, 'admin');
    const theirs = await strangers.query('requests.errors', { workspace: other.workspace.slug, since });
    expect(theirs.data.groups.map((group) => group.count)).toEqual([4]);
  });

  it('refuses a member, and an admin of another workspace', async () => {
    const member = await signedIn(fx, 'member');
    const refused = await member.query('requests.list', { workspace: fx.workspace.slug });
    expect(refused.status).toBe(403);
    expect(refused.error.message).toBe('Only owners and admins of this workspace read its request log');
    const requestId = '00000000-0000-4000-8000-000000000000';
    expect((await member.query('requests.get', { workspace: fx.workspace.slug, requestId })).status).toBe(403);
    expect((await member.query('requests.errors', { workspace: fx.workspace.slug })).status).toBe(403);
    const stranger = await signedIn(other, 'admin');
    for (const path of ['requests.list', 'requests.errors'] as const) {
      expect((await stranger.query(path, { workspace: fx.workspace.slug })).status).toBeGreaterThanOrEqual(403);
    }
  });
});
