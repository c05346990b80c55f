import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  it('refuses a member, and an admin of another workspace', async () => {
    const member = await signedIn(fx, 'member');
    const refused = await member.query('requests.list', { workspace: fx.workspace.slug });
    expect(refused.status).toBe(403);
    expect(refused.error.message).toBe('Only owners and admins of this workspace read its request log');
    const stranger = await signedIn(other, 'admin');
    expect((await stranger.query('requests.list', { workspace: fx.workspace.slug })).status).toBeGreaterThanOrEqual(403);
  });
});
