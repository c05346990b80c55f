import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiClient, errorOf } from '../support/client';
import { createWorkspaceFixture, type WorkspaceFixture } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/http';
import { createPerson, settingsClient, signIn } from '../support/settings';

// The guard is on: WEBHOOK_ALLOW_PRIVATE_ADDRESSES is not set in this file.
delete process.env.WEBHOOK_ALLOW_PRIVATE_ADDRESSES;

let server: TestServer;
let fx: WorkspaceFixture;
beforeAll(async () => {
  server = await startTestServer();
  fx = await createWorkspaceFixture();
});
afterAll(() => server.close());

it('refuses an endpoint into the network with the same 400 as the CLI, saving nothing', async () => {
  const person = await createPerson(fx.workspace.id, 'owner');
  const client = settingsClient(server.baseUrl, { cookie: (await signIn(server.baseUrl, person.email, person.password)).cookie });
  const answer = await client.mutate('webhooks.create', {
    workspace: fx.workspace.slug,
    url: 'https://169.254.169.254/latest',
    events: [],
    projectId: null,
  });
  expect(answer.status).toBe(400);
  expect(answer.error.message).toBe('url: must not lead to a loopback, private, link-local or metadata address');
  expect((await client.query('webhooks.list', { workspace: fx.workspace.slug })).data).toEqual([]);
});

it('refuses the same address through the public API with the same 400, through the same check', async () => {
  const client = apiClient(server.baseUrl, await fx.key({ scopes: ['webhook:manage'] }));
  for (const url of ['https://169.254.169.254/latest', 'https://10.0.0.8/hooks', 'https://[::1]/hooks', 'http://hooks.example.com/']) {
    const answer = await client.post('/webhooks/endpoints', { url });
    expect(answer.status, url).toBe(400);
  }
  expect(errorOf(await client.post('/webhooks/endpoints', { url: 'https://169.254.169.254/latest' })).message).toBe(
    'url: must not lead to a loopback, private, link-local or metadata address',
  );
  expect(errorOf(await client.post('/webhooks/endpoints', { url: 'http://hooks.example.com/' })).message).toBe('url: must be https');
  expect(((await client.get('/webhooks/endpoints')).body as { webhooks: unknown[] }).webhooks).toEqual([]);
});
