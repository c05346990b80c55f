import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../server/db/client';
import { useApi } from '../support/api';
import { apiClient, errorOf } from '../support/client';
import { connectApp, personSignedIn, restResource } from '../support/oauth';
import type { RequestList } from '../support/types';

const api = useApi();
let admin: Awaited<ReturnType<typeof personSignedIn>>;

beforeAll(async () => {
  admin = await personSignedIn(api.server.baseUrl, api.fixture.workspace.id, 'admin');
});

describe("an app's requests", () => {
  it('are recorded under its app id, which it reads back without a scope, and the workspace finds by appId', async () => {
    const connected = await connectApp(
      api.server.baseUrl,
      admin.cookie,
      { workspace: api.fixture.workspace.slug, scopes: ['task:read'] },
      { resource: restResource() },
    );
    const grant = await db().oauthGrant.findFirstOrThrow({ where: { clientId: connected.clientId }, select: { id: true } });
    const app = apiClient(api.server.baseUrl, connected.tokens.access_token);
    const missing = await app.get('/web/tasks/WEB-999999');
    expect(missing.status).toBe(404);
    const requestId = missing.headers.get('x-request-id')!;

    let own: RequestList;
    for (;;) {
      own = (await app.get(`/requests/mine?requestId=${requestId}`)).body as RequestList;
      if (own.requests.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(own.requests).toMatchObject([{ requestId, appId: grant.id, keyId: null, status: 404, message: 'Task not found' }]);
    // The app was not granted the workspace's log: its own requests only.
    expect(errorOf(await app.get('/requests')).statusCode).toBe(403);
    const reader = apiClient(api.server.baseUrl, await api.fixture.key({ scopes: ['requests:read'] }));
    const byApp = (await reader.get(`/requests?appId=${grant.id}&status=404`)).body as RequestList;
    expect(byApp.requests.map((r) => r.requestId)).toEqual([requestId]);
    expect(((await reader.get(`/requests?keyId=${grant.id}`)).body as RequestList).requests).toEqual([]);
  });
});
