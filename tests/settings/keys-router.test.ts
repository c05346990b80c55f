import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../support/client';
import { createWorkspaceFixture, type WorkspaceFixture } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/http';
import { createPerson, settingsClient, signIn } from '../support/settings';

// Where a Vercel preview is mostly opened, beside the deployment URL APP_URL falls back to.
process.env.VERCEL_BRANCH_URL = 'task-api-git-fix-team.vercel.app';

let server: TestServer;
let fx: WorkspaceFixture;
let owner: { cookie: string; name: string };
let admin: { cookie: string };
let member: { cookie: string };

const validKey = () => ({
  workspace: fx.workspace.slug,
  name: 'Deploy bot',
  scopes: ['task:read'],
  projectId: null,
  expiry: { kind: 'never' },
});

async function signedIn(role: 'owner' | 'admin' | 'member') {
  const person = await createPerson(fx.workspace.id, role);
  const { cookie } = await signIn(server.baseUrl, person.email, person.password);
  return { cookie, name: person.name };
}

beforeAll(async () => {
  server = await startTestServer();
  fx = await createWorkspaceFixture();
  [owner, admin, member] = await Promise.all([signedIn('owner'), signedIn('admin'), signedIn('member')]);
});
afterAll(() => server.close());

describe('settings router: who manages keys', () => {
  it('lets an owner create a key and returns its secret once, with the list showing only the hint', async () => {
    const client = settingsClient(server.baseUrl, { cookie: owner.cookie });
    const created = await client.mutate('keys.create', validKey());
    expect(created.status).toBe(200);
    expect(created.data.secret).toMatch(/^tk_[0-9a-f]{40}$/);
    expect(created.data.key).toMatchObject({ name: 'Deploy bot', scopes: ['task:read'], state: 'active', createdBy: owner.name });
    const listed = await client.query('keys.list', { workspace: fx.workspace.slug });
    expect(listed.status).toBe(200);
    expect(listed.data.map((key) => key.id)).toContain(created.data.key.id);
    expect(JSON.stringify(listed.data)).not.toContain(created.data.secret);
    expect(listed.data.find((key) => key.id === created.data.key.id)?.hint).toBe(`tk_…${created.data.secret.slice(-4)}`);
  });

  it('lets an admin create and revoke a key', async () => {
    const client = settingsClient(server.baseUrl, { cookie: admin.cookie });
    const created = await client.mutate('keys.create', validKey());
    expect(created.status).toBe(200);
    const revoked = await client.mutate('keys.revoke', { workspace: fx.workspace.slug, id: created.data.key.id });
    expect(revoked.status).toBe(200);
    expect(revoked.data.state).toBe('revoked');
  });

  it('refuses a member with 403 on list, create and revoke', async () => {
    const client = settingsClient(server.baseUrl, { cookie: member.cookie });
    const key = await settingsClient(server.baseUrl, { cookie: owner.cookie }).mutate('keys.create', validKey());
    const answers = await Promise.all([
      client.query('keys.list', { workspace: fx.workspace.slug }),
      client.mutate('keys.create', validKey()),
      client.mutate('keys.revoke', { workspace: fx.workspace.slug, id: key.data.key.id }),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(403);
      expect(answer.error.message).toBe('Only owners and admins of this workspace manage its API keys');
    }
  });

  it('refuses a signed-out caller with 401', async () => {
    const client = settingsClient(server.baseUrl);
    expect((await client.query('keys.list', { workspace: fx.workspace.slug })).status).toBe(401);
    expect((await client.mutate('keys.create', validKey())).status).toBe(401);
  });

  it('answers 404 for a workspace the user is not a member of', async () => {
    const other = await createWorkspaceFixture();
    const client = settingsClient(server.baseUrl, { cookie: owner.cookie });
    const answer = await client.query('keys.list', { workspace: other.workspace.slug });
    expect(answer.status).toBe(404);
  });
});

describe('settings router: cross-site mutations', () => {
  it('refuses a mutation from another origin even with a valid session', async () => {
    const client = settingsClient(server.baseUrl, { cookie: owner.cookie, origin: 'https://evil.example' });
    const answer = await client.mutate('keys.create', { ...validKey(), name: 'Planted key' });
    expect(answer.status).toBe(403);
    expect(answer.error.message).toBe('Cross-site request refused');
    const listed = await settingsClient(server.baseUrl, { cookie: owner.cookie }).query('keys.list', { workspace: fx.workspace.slug });
    expect(listed.data.map((key) => key.name)).not.toContain('Planted key');
  });

  it("accepts a mutation from a preview's branch alias (VERCEL_BRANCH_URL)", async () => {
    const client = settingsClient(server.baseUrl, { cookie: owner.cookie, origin: 'https://task-api-git-fix-team.vercel.app' });
    expect((await client.mutate('keys.create', { ...validKey(), name: 'From the preview' })).status).toBe(200);
  });

  it('refuses a mutation without an Origin header', async () => {
    const client = settingsClient(server.baseUrl, { cookie: owner.cookie, origin: null });
    expect((await client.mutate('keys.create', validKey())).status).toBe(403);
  });
});

describe('settings router: validation', () => {
  it('reports each invalid field under its own name', async () => {
    const client = settingsClient(server.baseUrl, { cookie: owner.cookie });
    const answer = await client.mutate('keys.create', {
      ...validKey(),
      name: '  ',
      scopes: [],
      expiry: { kind: 'date', date: '2020-01-01' },
    });
    expect(answer.status).toBe(400);
    expect(answer.error.data.fieldErrors).toEqual({
      name: 'must not be empty',
      scopes: 'must name at least one scope',
      expiry: 'must be in the future',
    });
  });

  it.each([
    ['U+0000', 'Deploy\u0000bot', 'must not contain the character U+0000'],
    ['a lone surrogate', 'Deploy \ud800', 'must not contain a lone surrogate (U+D800 to U+DFFF without its pair)'],
  ])('refuses a key name holding %s with 400 naming the field, creating nothing', async (_, name, message) => {
    const client = settingsClient(server.baseUrl, { cookie: owner.cookie });
    const before = (await client.query('keys.list', { workspace: fx.workspace.slug })).data.length;
    const answer = await client.mutate('keys.create', { ...validKey(), name });
    expect(answer.status).toBe(400);
    expect(answer.error.data.fieldErrors).toEqual({ name: message });
    expect((await client.query('keys.list', { workspace: fx.workspace.slug })).data).toHaveLength(before);
  });

  it('refuses a workspace slug holding U+0000 with 400 naming the field', async () => {
    const answer = await settingsClient(server.baseUrl, { cookie: owner.cookie }).query('keys.list', { workspace: 'acme\u0000' });
    expect(answer.status).toBe(400);
    expect(answer.error.data.fieldErrors).toEqual({ workspace: 'must not contain the character U+0000' });
  });

  it('refuses a project of another workspace with 404', async () => {
    const other = await createWorkspaceFixture();
    const client = settingsClient(server.baseUrl, { cookie: owner.cookie });
    const answer = await client.mutate('keys.create', { ...validKey(), projectId: other.projects.web.id });
    expect(answer.status).toBe(404);
    expect(answer.error.message).toBe('Project not found');
  });

  it('sets a key for 30 days to expire 30 days from now', async () => {
    const client = settingsClient(server.baseUrl, { cookie: owner.cookie });
    const answer = await client.mutate('keys.create', { ...validKey(), expiry: { kind: 'days', days: 30 } });
    const expected = Date.now() + 30 * 24 * 3600 * 1000;
    expect(Math.abs(Date.parse(answer.data.key.expiresAt!) - expected)).toBeLessThan(60_000);
  });

  it('lets a key expiring on a date work until the end of that day, UTC', async () => {
    const client = settingsClient(server.baseUrl, { cookie: owner.cookie });
    const answer = await client.mutate('keys.create', { ...validKey(), expiry: { kind: 'date', date: '2099-06-30' } });
    expect(answer.data.key.expiresAt).toBe('2099-06-30T23:59:59.999Z');
  });
});

describe('settings router: keys at work', () => {
  it('limits a created key to its project and scopes on the public API', async () => {
    const client = settingsClient(server.baseUrl, { cookie: owner.cookie });
    const created = await client.mutate('keys.create', { ...validKey(), projectId: fx.projects.web.id });
    expect(created.data.key.project).toEqual({ id: fx.projects.web.id, name: 'Web' });
    const api = apiClient(server.baseUrl, created.data.secret);
    expect((await api.get('/web/tasks')).status).toBe(200);
    expect((await api.get('/api/tasks')).status).toBe(403);
    expect((await api.post('/web/tasks', { title: 'Nope' })).status).toBe(403);
  });

  it('makes a revoked key answer 401 on the public API at once', async () => {
    const client = settingsClient(server.baseUrl, { cookie: owner.cookie });
    const created = await client.mutate('keys.create', validKey());
    const api = apiClient(server.baseUrl, created.data.secret);
    expect((await api.get('/web/tasks')).status).toBe(200);
    await client.mutate('keys.revoke', { workspace: fx.workspace.slug, id: created.data.key.id });
    expect((await api.get('/web/tasks')).status).toBe(401);
  });

  it('lists the projects a key can be limited to', async () => {
    const client = settingsClient(server.baseUrl, { cookie: owner.cookie });
    const answer = await client.query('projects.list', { workspace: fx.workspace.slug });
    expect(answer.data).toEqual([
      { id: fx.projects.api.id, name: 'API' },
      { id: fx.projects.web.id, name: 'Web' },
    ]);
  });
});
