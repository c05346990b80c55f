import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleKeyUsage } from '../../server/auth/last-used';
import { db } from '../../server/db/client';
import { revokeApiKey } from '../../server/keys/manage';
import { SCOPES, type Scope } from '../../server/keys/scopes';
import { generateKeySecret, hashKey } from '../../server/keys/key-format';
import { createProject } from '../../server/projects/projects';
import { settleStorage } from '../../server/storage/storage';
import { apiClient } from '../support/client';
import { FIXTURE_AUDIT, createWorkspaceFixture, type WorkspaceFixture } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/http';

// The per-key limit has its own tests; here every key may make as many requests as it needs.
process.env.RATE_LIMIT_PER_MINUTE = '100000';

const INVALID_KEY = 'Invalid API key';

/**
 * Requests with a bad key are limited per client address (30 a minute). Each
 * request of this file comes from an address of its own, unique to this run, so
 * that the matrix below measures authentication and not that limit.
 */
const runOctet = randomBytes(1)[0]!;
let addressCount = 0;
function nextAddress(): string {
  addressCount += 1;
  return `198.18.${runOctet}.${addressCount}`;
}

interface Target {
  slug: string;
  taskId: string;
  attachmentId: string;
}

interface Endpoint {
  name: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  scope: Scope;
  success: number;
  path(target: Target): string;
  body?(): unknown;
}

function uploadForm(): FormData {
  const data = new FormData();
  data.append('file', new Blob(['hello'], { type: 'text/plain' }), 'hello.txt');
  return data;
}

// The twelve endpoints of the contract, in its order.
const ENDPOINTS: Endpoint[] = [
  { name: 'GET /{projectSlug}/statuses', method: 'GET', scope: 'task:read', success: 200, path: (t) => `/${t.slug}/statuses` },
  { name: 'GET /{projectSlug}/labels', method: 'GET', scope: 'task:read', success: 200, path: (t) => `/${t.slug}/labels` },
  { name: 'GET /{projectSlug}/members', method: 'GET', scope: 'task:read', success: 200, path: (t) => `/${t.slug}/members` },
  { name: 'GET /{projectSlug}/tasks', method: 'GET', scope: 'task:read', success: 200, path: (t) => `/${t.slug}/tasks` },
  {
    name: 'GET /{projectSlug}/tasks/{taskId}',
    method: 'GET',
    scope: 'task:read',
    success: 200,
    path: (t) => `/${t.slug}/tasks/${t.taskId}`,
  },
  {
    name: 'POST /{projectSlug}/tasks',
    method: 'POST',
    scope: 'task:create',
    success: 201,
    path: (t) => `/${t.slug}/tasks`,
    body: () => ({ title: 'Created through the matrix' }),
  },
  {
    name: 'PATCH /{projectSlug}/tasks/{taskId}',
    method: 'PATCH',
    scope: 'task:update',
    success: 200,
    path: (t) => `/${t.slug}/tasks/${t.taskId}`,
    body: () => ({ priority: 'high' }),
  },
  {
    name: 'DELETE /{projectSlug}/tasks/{taskId}',
    method: 'DELETE',
    scope: 'task:update',
    success: 200,
    path: (t) => `/${t.slug}/tasks/${t.taskId}`,
  },
  {
    name: 'GET /{projectSlug}/tasks/{taskId}/comments',
    method: 'GET',
    scope: 'task:read',
    success: 200,
    path: (t) => `/${t.slug}/tasks/${t.taskId}/comments`,
  },
  {
    name: 'POST /{projectSlug}/tasks/{taskId}/comments',
    method: 'POST',
    scope: 'task:update',
    success: 201,
    path: (t) => `/${t.slug}/tasks/${t.taskId}/comments`,
    body: () => ({ content: 'Looks good' }),
  },
  {
    name: 'GET /{projectSlug}/tasks/{taskId}/attachments/{attachmentId}',
    method: 'GET',
    scope: 'task:read',
    success: 200,
    path: (t) => `/${t.slug}/tasks/${t.taskId}/attachments/${t.attachmentId}`,
  },
  {
    name: 'POST /{projectSlug}/tasks/{taskId}/attachments',
    method: 'POST',
    scope: 'task:create',
    success: 201,
    path: (t) => `/${t.slug}/tasks/${t.taskId}/attachments`,
    body: uploadForm,
  },
];

let server: TestServer;
let fixture: WorkspaceFixture;
/** A task with an attachment in project web of the fixture's workspace. */
let web: Target;
/** A task with an attachment in a project of another workspace. */
let elsewhere: Target;
let keys: {
  full: string;
  revoked: string;
  expired: string;
  apiOnly: string;
  without: Record<Scope, string>;
  /** Active, every scope, stored by its hash, but without the checksum keys carry now. */
  unchecked: string;
};

async function taskWithAttachment(key: string, slug: string): Promise<Target> {
  const client = apiClient(server.baseUrl, key);
  const task = await client.post(`/${slug}/tasks`, { title: 'Target' });
  expect(task.status).toBe(201);
  const attachment = await client.post(`/${slug}/tasks/${task.body.id}/attachments`, uploadForm());
  expect(attachment.status).toBe(201);
  return { slug, taskId: task.body.id, attachmentId: attachment.body.id };
}

const keyIdOf = async (secret: string) =>
  (await db().apiKey.findUniqueOrThrow({ where: { keyHash: hashKey(secret) }, select: { id: true } })).id;

beforeAll(async () => {
  server = await startTestServer();
  fixture = await createWorkspaceFixture();
  const other = await createWorkspaceFixture();
  // Only the other workspace has a project with this slug: the key's own workspace answers 404.
  await createProject(db(), { workspaceId: other.workspace.id, slug: 'elsewhere', name: 'Elsewhere', keyPrefix: 'ELS' });

  const without = Object.fromEntries(
    await Promise.all(SCOPES.map(async (scope) => [scope, await fixture.key({ scopes: SCOPES.filter((s) => s !== scope) })])),
  ) as Record<Scope, string>;
  keys = {
    full: await fixture.key(),
    revoked: await fixture.key(),
    expired: await fixture.key({ expiresAt: new Date(Date.now() + 3_600_000) }),
    apiOnly: await fixture.key({ projectId: fixture.projects.api.id }),
    without,
    unchecked: 'tk_3f9a1c0d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39',
  };
  await db().apiKey.update({ where: { keyHash: hashKey(await fixture.key()) }, data: { keyHash: hashKey(keys.unchecked) } });
  await revokeApiKey(db(), fixture.workspace.id, await keyIdOf(keys.revoked), FIXTURE_AUDIT);
  // Keys cannot be created already expired: move the expiry into the past in the database.
  await db().apiKey.update({ where: { keyHash: hashKey(keys.expired) }, data: { expiresAt: new Date(Date.now() - 60_000) } });

  web = await taskWithAttachment(keys.full, 'web');
  elsewhere = await taskWithAttachment(await other.key(), 'elsewhere');
});

afterAll(async () => {
  await settleStorage();
  await settleKeyUsage();
  await server.close();
});

async function send(endpoint: Endpoint, target: Target, headers: Record<string, string>) {
  return apiClient(server.baseUrl).call(endpoint.method, endpoint.path(target), {
    body: endpoint.body?.(),
    headers: { 'x-forwarded-for': nextAddress(), ...headers },
  });
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

interface Case {
  case: string;
  status: number;
  message(endpoint: Endpoint): string;
  headers(endpoint: Endpoint): Record<string, string>;
  target?: () => Target;
}

const CASES: Case[] = [
  { case: 'no key', status: 401, message: () => INVALID_KEY, headers: () => ({}) },
  { case: 'a malformed key', status: 401, message: () => INVALID_KEY, headers: () => bearer('tk_not-a-real-key') },
  {
    case: 'an unknown well-formed key',
    status: 401,
    message: () => INVALID_KEY,
    headers: () => bearer(generateKeySecret()),
  },
  {
    case: 'a valid key with one character changed',
    status: 401,
    message: () => INVALID_KEY,
    headers: () => bearer(keys.full.slice(0, -1) + (keys.full.endsWith('0') ? '1' : '0')),
  },
  {
    case: 'a stored key in the format issued before checksums (tk_ and 40 random hex)',
    status: 401,
    message: () => INVALID_KEY,
    headers: () => bearer(keys.unchecked),
  },
  { case: 'a revoked key', status: 401, message: () => INVALID_KEY, headers: () => bearer(keys.revoked) },
  { case: 'an expired key', status: 401, message: () => INVALID_KEY, headers: () => bearer(keys.expired) },
  {
    case: "a key missing the endpoint's scope",
    status: 403,
    message: (endpoint) => `Missing required scope: ${endpoint.scope}`,
    // Holds the other two scopes.
    headers: (endpoint) => bearer(keys.without[endpoint.scope]),
  },
  {
    case: 'a key limited to another project',
    status: 403,
    message: () => 'API key does not have access to project web',
    headers: () => bearer(keys.apiOnly),
  },
  {
    case: 'a project of another workspace',
    status: 404,
    message: () => 'Project not found',
    headers: () => bearer(keys.full),
    target: () => elsewhere,
  },
];

const matrix = ENDPOINTS.flatMap((endpoint) =>
  CASES.map((c) => ({ endpoint: endpoint.name, case: c.case, status: c.status, e: endpoint, c })),
);

describe('authorization matrix', () => {
  it.each(matrix)('$endpoint with $case answers $status', async ({ e, c }) => {
    const response = await send(e, c.target?.() ?? web, c.headers(e));

    expect(response.body).toEqual({ statusCode: c.status, message: c.message(e) });
    expect(response.status).toBe(c.status);
  });

  // The baseline: with a fitting key every endpoint of the matrix answers its success status.
  it.each(ENDPOINTS.map((e) => ({ endpoint: e.name, status: e.success, e })))(
    '$endpoint with a key holding every scope answers $status',
    async ({ e }) => {
      // Deleting needs a task of its own; every other endpoint works on the shared one.
      const target = e.method === 'DELETE' ? await taskWithAttachment(keys.full, 'web') : web;
      const response = await send(e, target, bearer(keys.full));
      expect(response.status).toBe(e.success);
    },
  );

  it('a key scoped to its project reaches that project', async () => {
    const projectKey = await fixture.key({ projectId: fixture.projects.web.id });
    const response = await apiClient(server.baseUrl, projectKey).get('/web/statuses');
    expect(response.status).toBe(200);
  });

  it('a key whose expiry is still ahead works', async () => {
    const key = await fixture.key({ expiresAt: new Date(Date.now() + 60_000) });
    expect((await apiClient(server.baseUrl, key).get('/web/statuses')).status).toBe(200);
  });
});

describe('presenting the key', () => {
  it('accepts Authorization: Bearer', async () => {
    const response = await apiClient(server.baseUrl).get('/web/statuses', bearer(keys.full));
    expect(response.status).toBe(200);
  });

  it('accepts X-API-Key', async () => {
    const response = await apiClient(server.baseUrl).get('/web/statuses', { 'x-api-key': keys.full });
    expect(response.status).toBe(200);
  });

  it.each(['bearer', 'BEARER', 'BeArEr'])('accepts the scheme written %s', async (scheme) => {
    const response = await apiClient(server.baseUrl).get('/web/statuses', { authorization: `${scheme} ${keys.full}` });
    expect(response.status).toBe(200);
  });

  it('answers 401 to another Authorization scheme', async () => {
    const response = await apiClient(server.baseUrl).get('/web/statuses', {
      authorization: `Basic ${Buffer.from(`x:${keys.full}`).toString('base64')}`,
      'x-forwarded-for': nextAddress(),
    });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ statusCode: 401, message: INVALID_KEY });
  });

  it('answers 401 to an empty X-API-Key', async () => {
    const response = await apiClient(server.baseUrl).get('/web/statuses', { 'x-api-key': '', 'x-forwarded-for': nextAddress() });
    expect(response.body).toEqual({ statusCode: 401, message: INVALID_KEY });
  });

  it('answers 401 to a key in the query string', async () => {
    const response = await apiClient(server.baseUrl).get(`/web/statuses?api_key=${keys.full}`, { 'x-forwarded-for': nextAddress() });
    expect(response.status).toBe(401);
  });
});

describe('order of the checks', () => {
  const anon = () => apiClient(server.baseUrl);
  const as = (key: string) => apiClient(server.baseUrl, key);
  const from = () => ({ 'x-forwarded-for': nextAddress() });

  it('an unknown project with a key lacking the scope answers 403 for the scope, not 404', async () => {
    const response = await as(keys.without['task:read']).get('/no-such-project/tasks');
    expect(response.body).toEqual({ statusCode: 403, message: 'Missing required scope: task:read' });
  });

  it('an unknown project with a revoked key answers 401, not 404', async () => {
    const response = await as(keys.revoked).get('/no-such-project/tasks', from());
    expect(response.body).toEqual({ statusCode: 401, message: INVALID_KEY });
  });

  it('an invalid body with no key answers 401, not 400', async () => {
    const response = await anon().post('/web/tasks', { title: '', priority: 'sky-high', extra: true }, from());
    expect(response.body).toEqual({ statusCode: 401, message: INVALID_KEY });
  });

  it('a body that is not JSON with no key answers 401, not 400', async () => {
    const response = await anon().post('/web/tasks', '{"title": ', { 'content-type': 'application/json', ...from() });
    expect(response.body).toEqual({ statusCode: 401, message: INVALID_KEY });
  });

  it('a body that is not JSON answers 400 once the key is checked', async () => {
    const response = await as(keys.full).post('/web/tasks', '{"title": ', { 'content-type': 'application/json' });
    expect(response.body).toEqual({ statusCode: 400, message: 'Request body is not valid JSON' });
  });

  it('a body of another Content-Type with no key answers 401, not 415', async () => {
    const response = await anon().post('/web/tasks', 'title=x', { 'content-type': 'application/x-www-form-urlencoded', ...from() });
    expect(response.body).toEqual({ statusCode: 401, message: INVALID_KEY });
  });

  it('a body of another Content-Type answers 415 once the key and scope are checked', async () => {
    const lacking = await as(keys.without['task:update']).patch(`/web/tasks/${web.taskId}`, 'x', { 'content-type': 'text/plain' });
    const response = await as(keys.full).patch(`/web/tasks/${web.taskId}`, 'x', { 'content-type': 'text/plain' });
    expect(lacking.body).toEqual({ statusCode: 403, message: 'Missing required scope: task:update' });
    expect(response.body).toEqual({ statusCode: 415, message: 'Content-Type must be application/json' });
  });

  it('a body that is not an object with no key answers 401, not 400', async () => {
    const response = await anon().post('/web/tasks', '[1, 2]', { 'content-type': 'application/json', ...from() });
    expect(response.body).toEqual({ statusCode: 401, message: INVALID_KEY });
  });

  it('an invalid query string with no key answers 401, not 400', async () => {
    const response = await anon().get('/web/tasks?limit=0&page=-1', from());
    expect(response.body).toEqual({ statusCode: 401, message: INVALID_KEY });
  });

  it('an invalid body with a key lacking the scope answers 403, not 400', async () => {
    const response = await as(keys.without['task:create']).post('/web/tasks', { title: '' });
    expect(response.body).toEqual({ statusCode: 403, message: 'Missing required scope: task:create' });
  });

  it('an invalid body on an unknown project answers 404, not 400', async () => {
    const response = await as(keys.full).post('/no-such-project/tasks', { title: '' });
    expect(response.body).toEqual({ statusCode: 404, message: 'Project not found' });
  });

  it("an invalid body on a project outside the key's project scope answers 403, not 400", async () => {
    const response = await as(keys.apiOnly).patch(`/web/tasks/${web.taskId}`, { unknownField: 1 });
    expect(response.body).toEqual({ statusCode: 403, message: 'API key does not have access to project web' });
  });

  it("an unknown task on a project outside the key's project scope answers 403, not 404", async () => {
    const response = await as(keys.apiOnly).get(`/web/tasks/${randomUUID()}`);
    expect(response.body).toEqual({ statusCode: 403, message: 'API key does not have access to project web' });
  });

  it('a key limited to a project gets 404 for a project of another workspace', async () => {
    const response = await as(keys.apiOnly).get('/elsewhere/tasks');
    expect(response.body).toEqual({ statusCode: 404, message: 'Project not found' });
  });

  it("a task of another workspace is not found through the key's own project", async () => {
    const response = await as(keys.full).get(`/web/tasks/${elsewhere.taskId}`);
    expect(response.body).toEqual({ statusCode: 404, message: 'Task not found' });
  });

  it('the upload checks the key before the body: no key and no multipart answers 401', async () => {
    const response = await anon().post(`/web/tasks/${web.taskId}/attachments`, 'not multipart', {
      'content-type': 'text/plain',
      ...from(),
    });
    expect(response.body).toEqual({ statusCode: 401, message: INVALID_KEY });
  });
});

describe('lastUsedAt', () => {
  const lastUsedAt = async (secret: string) =>
    (await db().apiKey.findUniqueOrThrow({ where: { keyHash: hashKey(secret) }, select: { lastUsedAt: true } })).lastUsedAt;

  it('is empty until the key is used, then set to the time of use', async () => {
    const key = await fixture.key();
    expect(await lastUsedAt(key)).toBeNull();
    const before = Date.now();

    expect((await apiClient(server.baseUrl, key).get('/web/statuses')).status).toBe(200);
    await settleKeyUsage();
    const after = Date.now();

    const used = await lastUsedAt(key);
    expect(used).toBeInstanceOf(Date);
    // The database's clock writes it, between the call and the write: allow for a little skew either side.
    expect(used!.getTime()).toBeGreaterThan(before - 5_000);
    expect(used!.getTime()).toBeLessThan(after + 5_000);
  });

  it('is written at most once a minute', async () => {
    const key = await fixture.key();
    const client = apiClient(server.baseUrl, key);
    await client.get('/web/statuses');
    await settleKeyUsage();
    const first = await lastUsedAt(key);

    await new Promise((resolve) => setTimeout(resolve, 50));
    for (let i = 0; i < 3; i++) expect((await client.get('/web/labels')).status).toBe(200);
    await settleKeyUsage();

    expect(await lastUsedAt(key)).toEqual(first);
  });

  it('is not written for a revoked key', async () => {
    await apiClient(server.baseUrl, keys.revoked).get('/web/statuses', { 'x-forwarded-for': nextAddress() });
    await settleKeyUsage();
    expect(await lastUsedAt(keys.revoked)).toBeNull();
  });
});
