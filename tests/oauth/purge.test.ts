import { describe, expect, it } from 'vitest';
import { db } from '../../server/db/client';
import { purgeStorage } from '../../server/retention/purge';
import { useApi } from '../support/api';
import { connectApp, personSignedIn, registerClient } from '../support/oauth';

const api = useApi();

describe('the scheduled purge', () => {
  it('deletes registrations no grant came of once a day old, and keeps those an admin approved', async () => {
    const admin = await personSignedIn(api.server.baseUrl, api.fixture.workspace.id, 'admin');
    const unused = await registerClient(api.server.baseUrl);
    const connected = await connectApp(api.server.baseUrl, admin.cookie, { workspace: api.fixture.workspace.slug, scopes: ['task:read'] });
    const exists = async (clientId: string) => (await db().oauthClient.count({ where: { clientId } })) === 1;

    await purgeStorage(db(), { now: Date.now() + 60 * 60_000 });
    expect(await exists(unused.body.client_id)).toBe(true);

    const report = await purgeStorage(db(), { now: Date.now() + 25 * 60 * 60_000 });
    expect(report.oauthClients).toBeGreaterThanOrEqual(1);
    expect(await exists(unused.body.client_id)).toBe(false);
    expect(await exists(connected.clientId)).toBe(true);
  });
});
