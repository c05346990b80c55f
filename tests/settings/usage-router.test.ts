import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../server/db/client';
import { createApiKey } from '../../server/keys/manage';
import { flushRequestLog } from '../../server/request-log/flush';
import { apiClient } from '../support/client';
import { createWorkspaceFixture, FIXTURE_AUDIT, type WorkspaceFixture } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/http';
import { createPerson, settingsClient, signIn } from '../support/settings';

let server: TestServer;
let fx: WorkspaceFixture;
let other: WorkspaceFixture;
let keyId: string;
const requestIds: string[] = [];

async function signedIn(fixture: WorkspaceFixture, role: 'owner' | 'admin' | 'member') {
  const person = await createPerson(fixture.workspace.id, role);
  return settingsClient(server.baseUrl, { cookie: (await signIn(server.baseUrl, person.email, person.password)).cookie });
}

beforeAll(async () => {
  server = await startTestServer();
  [fx, other] = await Promise.all([createWorkspaceFixture(), createWorkspaceFixture()]);
  const created = await createApiKey(
    db(),
    fx.workspace.id,
    { name: 'Importer', scopes: ['task:read'], projectId: null, expiresAt: null },
    null,
    FIXTURE_AUDIT,
  );
  keyId = created.id;
  const client = apiClient(server.baseUrl, created.key);
  for (const path of ['/web/statuses', '/web/statuses', '/web/tasks/WEB-999999'])
    requestIds.push((await client.get(path)).headers.get('x-request-id')!);
  await flushRequestLog();
});
afterAll(() => server.close());

describe('settings router: usage and a key’s page', () => {
  it("gives an admin each key's last 24 hours, a key with its newest requests, and the usage of a range with the keys named", async () => {
    const admin = await signedIn(fx, 'admin');
    const lastDay = await admin.query('usage.lastDay', { workspace: fx.workspace.slug });
    expect(lastDay.data).toEqual({ [keyId]: { requests: 3, errors: 1 } });

    const key = await admin.query('keys.get', { workspace: fx.workspace.slug, id: keyId });
    expect(key.data.key).toMatchObject({ id: keyId, name: 'Importer', state: 'active' });
    expect(key.data.requests.map((request) => request.requestId)).toEqual([...requestIds].reverse());

    const usage = await admin.query('usage.report', { workspace: fx.workspace.slug, range: '1h' });
    expect(usage.data).toMatchObject({ granularity: 'minute', total: { requests: 3, '2xx': 2, '4xx': 1 } });
    expect(usage.data.names).toEqual([{ id: keyId, name: 'Importer', kind: 'key' }]);
    expect((await admin.query('usage.report', { workspace: fx.workspace.slug, range: '2y' })).status).toBe(400);
  });

  it("answers 404 for another workspace's key, or an app's id on the keys' side, and refuses a member", async () => {
    const stranger = await signedIn(other, 'owner');
    const elsewhere = await stranger.query('keys.get', { workspace: other.workspace.slug, id: keyId });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.error.message).toBe('API key not found');
    expect((await stranger.query('apps.get', { workspace: other.workspace.slug, id: keyId })).status).toBe(404);
    expect((await stranger.query('usage.lastDay', { workspace: other.workspace.slug })).data).toEqual({});

    const member = await signedIn(fx, 'member');
    const refused = await member.query('usage.report', { workspace: fx.workspace.slug, range: '24h' });
    expect(refused.status).toBe(403);
    expect(refused.error.message).toBe('Only owners and admins of this workspace read its usage');
    expect((await member.query('keys.get', { workspace: fx.workspace.slug, id: keyId })).status).toBe(403);
  });
});
