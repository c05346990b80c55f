import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '../../server/db/client';
import { newSigningSecret, sealSecret } from '../../server/webhooks/secret';
import { apiClient } from '../support/client';
import { createWorkspaceFixture, type WorkspaceFixture } from '../support/fixtures';
import { createPerson, settingsClient, signIn } from '../support/settings';
import { ensureBuild } from '../support/build';
import { startAppServer, type AppServer } from '../e2e/app-server';
import { PATIENCE_MS } from '../support/patience';

// What an admin could type as a webhook endpoint to reach inside the network, sent to the
// server users run (`npm start`, its resident worker included) with the guard on.
// One secret for this file and the server: the test seals the endpoint's signing secret, the server opens it.
process.env.APP_SECRET = 'hostile-webhooks-app-secret-of-forty-characters';
let app: AppServer;
let fx: WorkspaceFixture;
let settings: ReturnType<typeof settingsClient>;

beforeAll(async () => {
  await ensureBuild();
  fx = await createWorkspaceFixture();
  app = await startAppServer(process.env.DATABASE_URL!, { WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'false' }, { launcher: true });
  const owner = await createPerson(fx.workspace.id, 'owner');
  const { cookie } = await signIn(app.baseUrl, owner.email, owner.password, app.baseUrl);
  settings = settingsClient(app.baseUrl, { cookie, origin: app.baseUrl });
});

afterAll(async () => {
  await app?.stop();
});

const create = (url: string, workspace = fx.workspace.slug) =>
  settings.mutate('webhooks.create', { workspace, url, events: [], projectId: null });

describe('webhook endpoints into the network', () => {
  it.each([
    // IPv4-compatible, NAT64 (well-known prefix, of a private address), local-use NAT64, 6to4, Teredo, site-local.
    ['https://[::7f00:1]/hook'],
    ['https://[::a00:1]/hook'],
    ['https://[64:ff9b::7f00:1]/hook'],
    ['https://[64:ff9b:1::808:808]/hook'],
    ['https://[2002:7f00:1::1]/hook'],
    ['https://[2001::1]/hook'],
    ['https://[fec0::1]/hook'],
  ])('refuses %s with 400, saving nothing', async (url) => {
    const answer = await create(url);
    expect([answer.status, answer.error?.message]).toEqual([
      400,
      'url: must not lead to a loopback, private, link-local or metadata address',
    ]);
  });

  it.each([['https://8.8.8.8:22/hook'], ['https://8.8.8.8:25/hook'], ['https://8.8.8.8:6/hook']])(
    'refuses the system port of %s with 400',
    async (url) => {
      const answer = await create(url);
      expect([answer.status, answer.error?.message]).toEqual([400, 'url: the port must be 443 or one of 1024 to 65535']);
    },
  );

  it('saved no endpoint for any of them', async () => {
    expect(await db().webhookEndpoint.count({ where: { workspaceId: fx.workspace.id } })).toBe(0);
  });

  it('records a refused delivery with a fixed text, never the address the name resolved to', async () => {
    // Saved past the check, as a name that resolved outside then and resolves inside now.
    const endpoint = await db().webhookEndpoint.create({
      data: {
        workspaceId: fx.workspace.id,
        url: `https://localhost:8443/${randomUUID()}`,
        events: [],
        secretSealed: sealSecret(newSigningSecret()),
      },
    });
    const key = await fx.key();
    expect((await apiClient(app.baseUrl, key).post('/web/tasks', { title: 'Rebound' })).status).toBe(201);

    // The resident worker attempts it as soon as the change commits.
    const delivery = await vi.waitFor(
      async () => {
        const found = await db().webhookDelivery.findFirstOrThrow({ where: { endpointId: endpoint.id } });
        expect(found.attempts).toBe(1);
        return found;
      },
      { timeout: PATIENCE_MS, interval: 200 },
    );
    expect(delivery.lastError).toBe('The endpoint resolves to a forbidden address');
    await db().webhookEndpoint.delete({ where: { id: endpoint.id } });
  });
});

describe('webhook endpoints per workspace', () => {
  it('are at most 20: the 21st is refused with 409 and the reason', async () => {
    const other = await createWorkspaceFixture();
    const owner = await createPerson(other.workspace.id, 'owner');
    const { cookie } = await signIn(app.baseUrl, owner.email, owner.password, app.baseUrl);
    const client = settingsClient(app.baseUrl, { cookie, origin: app.baseUrl });
    const add = () =>
      client.mutate('webhooks.create', { workspace: other.workspace.slug, url: 'https://8.8.8.8/hook', events: [], projectId: null });

    const answers = [];
    for (let i = 0; i < 21; i++) answers.push(await add());

    expect(answers.slice(0, 20).every((answer) => answer.status === 200)).toBe(true);
    expect([answers[20]!.status, answers[20]!.error?.message]).toEqual([
      409,
      'A workspace has at most 20 webhook endpoints: delete one before adding another',
    ]);
    expect(await db().webhookEndpoint.count({ where: { workspaceId: other.workspace.id } })).toBe(20);
  });
});
