import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../server/db/client';
import { startTestServer, type TestServer } from '../support/http';
import { settingsClient, signIn } from '../support/settings';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const owner = (n: number) => ({
  workspaceName: `Acme ${n}`,
  workspaceSlug: `acme-${n}`,
  name: `Owner ${n}`,
  email: `owner${n}@acme.test`,
  password: 'correct horse battery',
});

// The tests share one fresh database and run in order: no user, then one.
describe('first run setup', () => {
  it('reports invalid fields under their names without creating anything', async () => {
    const answer = await settingsClient(server.baseUrl).mutate('setup.createOwner', {
      ...owner(0),
      workspaceSlug: 'Not A Slug',
      email: 'nope',
      password: 'short',
    });
    expect(answer.status).toBe(400);
    expect(Object.keys(answer.error.data.fieldErrors!).sort()).toEqual(['email', 'password', 'workspaceSlug']);
    expect(await db().user.count()).toBe(0);
  });

  it('refuses names holding U+0000 or a lone surrogate with 400 naming the fields, creating nothing', async () => {
    const answer = await settingsClient(server.baseUrl).mutate('setup.createOwner', {
      ...owner(0),
      workspaceName: 'Acme\u0000',
      name: 'Ada \udc00',
    });
    expect(answer.status).toBe(400);
    expect(answer.error.data.fieldErrors).toEqual({
      workspaceName: 'must not contain the character U+0000',
      name: 'must not contain a lone surrogate (U+D800 to U+DFFF without its pair)',
    });
    expect(await db().user.count()).toBe(0);
  });

  it('refuses a cross-site setup request', async () => {
    const answer = await settingsClient(server.baseUrl, { origin: 'https://evil.example' }).mutate('setup.createOwner', owner(0));
    expect(answer.status).toBe(403);
    expect(await db().user.count()).toBe(0);
  });

  it('creates exactly one owner and workspace when two first runs race', async () => {
    const client = settingsClient(server.baseUrl);
    const answers = await Promise.all([client.mutate('setup.createOwner', owner(1)), client.mutate('setup.createOwner', owner(2))]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 403]);
    const winner = answers.find((answer) => answer.status === 200)!;
    const memberships = await db().membership.findMany({ include: { user: true, workspace: true } });
    expect(memberships).toHaveLength(1);
    expect(memberships[0]).toMatchObject({
      role: 'owner',
      user: { email: winner.data.owner.email },
      workspace: { slug: winner.data.workspace.slug },
    });
  });

  it('lets the first owner sign in with the password chosen at setup', async () => {
    const [membership] = await db().membership.findMany({ include: { user: true } });
    const { status } = await signIn(server.baseUrl, membership!.user.email, 'correct horse battery');
    expect(status).toBe(200);
  });

  it('is gone once a user exists', async () => {
    const answer = await settingsClient(server.baseUrl).mutate('setup.createOwner', owner(3));
    expect(answer.status).toBe(403);
    expect(answer.error.message).toBe('Setup is already done: sign in instead');
  });
});
