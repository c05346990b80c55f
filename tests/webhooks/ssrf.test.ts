import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../server/db/client';
import { attemptDelivery } from '../../server/webhooks/deliver';
import { createEndpoint } from '../../server/webhooks/endpoints';
import { sealSecret, newSigningSecret } from '../../server/webhooks/secret';
import { useApi } from '../support/api';
import { FIXTURE_AUDIT, createWorkspaceFixture } from '../support/fixtures';
import { startReceiver } from './receiver';

// The guard is on: WEBHOOK_ALLOW_PRIVATE_ADDRESSES is not set in this file.
delete process.env.WEBHOOK_ALLOW_PRIVATE_ADDRESSES;

const api = useApi();
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

const save = (url: string) => createEndpoint(db(), api.fixture.workspace.id, { url, events: [], projectId: null }, FIXTURE_AUDIT);
// Endpoints this file saves at public addresses belong to a workspace where nothing ever happens: no event, no request.
const saveQuiet = async (url: string) =>
  createEndpoint(db(), (await createWorkspaceFixture()).workspace.id, { url, events: [], projectId: null }, FIXTURE_AUDIT);

describe('no webhooks into the network', () => {
  it.each([
    ['https://127.0.0.1/hook'],
    ['https://localhost/hook'],
    ['https://10.1.2.3/hook'],
    ['https://192.168.0.10/hook'],
    ['https://169.254.169.254/latest/meta-data'],
    ['https://[::1]/hook'],
    ['https://[fd00:ec2::254]/hook'],
    ['https://[::ffff:127.0.0.1]/hook'],
    // IPv4-compatible, NAT64 of a private address, local-use NAT64, 6to4, Teredo, site-local, RFC 6145.
    ['https://[::7f00:1]/hook'],
    ['https://[::1.2.3.4]/hook'],
    ['https://[64:ff9b::a00:1]/hook'],
    ['https://[64:ff9b:1::808:808]/hook'],
    ['https://[2002:808:808::1]/hook'],
    ['https://[2001::1]/hook'],
    ['https://[fec0::1]/hook'],
    ['https://[::ffff:0:808:808]/hook'],
  ])('refuses to save %s', async (url) => {
    await expect(save(url)).rejects.toThrow('url: must not lead to a loopback, private, link-local or metadata address');
  });

  it.each([
    ['https://8.8.8.8/hook'],
    ['https://[2606:4700::1111]/hook'],
    ['https://[64:ff9b::808:808]/hook'],
    ['https://[::ffff:8.8.8.8]/hook'],
  ])('saves the public address %s', async (url) => {
    expect((await saveQuiet(url)).url).toBe(url);
  });

  it.each([['https://8.8.8.8:22/hook'], ['https://8.8.8.8:80/hook'], ['https://8.8.8.8:1023/hook']])(
    'refuses the port of %s',
    async (url) => {
      await expect(saveQuiet(url)).rejects.toThrow('url: the port must be 443 or one of 1024 to 65535');
    },
  );

  it.each([['https://8.8.8.8:443/hook'], ['https://8.8.8.8:8443/hook'], ['https://8.8.8.8:65535/hook']])(
    'saves the port of %s',
    async (url) => {
      expect((await saveQuiet(url)).id).toBeDefined();
    },
  );

  it('refuses plain http', async () => {
    await expect(save('http://example.com/hook')).rejects.toThrow('url: must be https');
  });

  /**
   * Saves an endpoint past the check at save, as if its name had resolved to a public
   * address then (DNS rebinding), makes one attempt at a task.created, and returns it.
   */
  async function attemptTo(url: (path: string) => string) {
    const path = randomUUID();
    const endpoint = await db().webhookEndpoint.create({
      data: {
        workspaceId: api.fixture.workspace.id,
        url: url(path),
        events: ['task.created'],
        secretSealed: sealSecret(newSigningSecret()),
      },
    });
    expect((await api.client.post('/web/tasks', { title: 'Inside' })).status).toBe(201);
    const delivery = await db().webhookDelivery.findFirstOrThrow({ where: { endpointId: endpoint.id } });
    await attemptDelivery(db(), delivery.id);
    expect(receiver.received(path)).toEqual([]);
    return db().webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } });
  }

  it('refuses at delivery a name that now resolves inside, against the address connected to', async () => {
    expect(await attemptTo((path) => `http://localhost:${receiver.port}/${path}`)).toMatchObject({
      attempts: 1,
      responseCode: null,
      lastError: 'The endpoint resolves to a forbidden address',
    });
  });

  it('refuses at delivery an IP literal inside the network', async () => {
    expect(await attemptTo(receiver.url)).toMatchObject({ attempts: 1, lastError: 'The endpoint resolves to a forbidden address' });
  });

  it('refuses at delivery a port below 1024 but 443 of an endpoint saved before the rule', async () => {
    expect(await attemptTo((path) => `https://8.8.8.8:25/${path}`)).toMatchObject({
      attempts: 1,
      responseCode: null,
      lastError: 'The endpoint’s port is not allowed',
    });
  });
});
