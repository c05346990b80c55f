import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appSecret } from '../../server/app-secret';
import { db } from '../../server/db/client';
import { createEndpoint } from '../../server/webhooks/endpoints';
import { startWebhookWorker, type WebhookWorker } from '../../server/jobs/worker';
import { addMember } from '../../server/workspaces/members';
import { createWorkspace } from '../../server/workspaces/workspaces';
import { apiClient } from '../support/client';
import { FIXTURE_AUDIT, createWorkspaceFixture, type WorkspaceFixture } from '../support/fixtures';
import { createPerson } from '../support/settings';
import { startReceiver } from '../webhooks/receiver';
import { launchBrowser, signInThroughPage, type Browser } from './browser';
import { ensureBuild } from '../support/build';
import { startAppServer, type AppServer } from './app-server';

process.env.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = 'true';

let app: AppServer;
let browser: Browser;
let fx: WorkspaceFixture;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let worker: WebhookWorker;

beforeAll(async () => {
  await ensureBuild();
  fx = await createWorkspaceFixture();
  receiver = await startReceiver();
  // The endpoint is a receiver on this machine's loopback, delivered to by a worker in this
  // process, which opens the secrets the server sealed: both share one app secret.
  worker = await startWebhookWorker(process.env.DATABASE_URL!);
  app = await startAppServer(process.env.DATABASE_URL!, { WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true', APP_SECRET: appSecret() });
  browser = await launchBrowser(app.baseUrl);
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await worker?.stop();
  await receiver?.close();
});

describe('the webhooks page in a browser', () => {
  it('lets an owner add an endpoint, see its secret once, see a delivery and send it again', async () => {
    const owner = await createPerson(fx.workspace.id, 'owner');
    const page = await browser.context.newPage();
    await page.goto(`${app.baseUrl}/settings/webhooks`);
    await page.waitForURL(/\/sign-in$/);
    await signInThroughPage(page, app.baseUrl, owner);
    await page.goto(`${app.baseUrl}/settings/webhooks?workspace=${fx.workspace.slug}`);

    const url = receiver.url('browser');
    await page.getByLabel('URL').fill(url);
    await page.getByRole('checkbox', { name: 'task.created' }).check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toBe('Endpoint added.');
    const secret = page.getByRole('textbox', { name: 'Signing secret' });
    await expect.poll(async () => (await secret.count()) && secret.inputValue()).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'I have saved it' }).click();
    await page.reload();
    expect(await page.getByRole('textbox', { name: 'Signing secret' }).count()).toBe(0);

    expect((await apiClient(app.baseUrl, await fx.key()).post('/web/tasks', { title: 'Seen by the hook' })).status).toBe(201);
    await expect.poll(() => receiver.received('browser').length).toBe(1);
    const endpoint = page.getByRole('article', { name: url });
    await endpoint.getByRole('button', { name: 'Show deliveries' }).click();
    const row = endpoint.getByRole('row', { name: /task\.created/ });
    await expect.poll(() => row.textContent()).toMatch(/delivered204\d+ ms1/);

    await row.getByRole('button', { name: 'Resend' }).click();
    await expect.poll(() => receiver.received('browser').length).toBe(2);
    const [first, second] = receiver.received('browser');
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    await page.close();
  });

  // Sign-in allows 3 per 10 s per address, as in production: these tests share one.
  describe('as an owner signed in once', () => {
    let signedIn: Browser;
    let owner: Awaited<ReturnType<typeof createPerson>>;
    beforeAll(async () => {
      owner = await createPerson(fx.workspace.id, 'owner');
      signedIn = await launchBrowser(app.baseUrl);
      const page = await signedIn.context.newPage();
      await signInThroughPage(page, app.baseUrl, owner);
      await page.close();
    });
    afterAll(() => signedIn?.close());

    it("changes an endpoint's events in place, and the audit log records the change by the owner", async () => {
      const url = receiver.url('changed');
      const created = await createEndpoint(db(), fx.workspace.id, { url, events: ['task.created'], projectId: null }, FIXTURE_AUDIT);
      const page = await signedIn.context.newPage();
      await page.goto(`${app.baseUrl}/settings/webhooks?workspace=${fx.workspace.slug}`);
      const endpoint = page.getByRole('article', { name: url });
      await endpoint.getByRole('button', { name: 'Edit' }).click();
      const form = endpoint.getByRole('form', { name: `Change ${url}` });
      expect(await form.getByRole('checkbox', { name: 'task.created' }).isChecked()).toBe(true);
      await form.getByRole('checkbox', { name: 'task.deleted' }).check();
      expect(await form.getByRole('checkbox', { name: 'Deliver from preview deployments' }).isChecked()).toBe(false);
      await form.getByRole('checkbox', { name: 'Deliver from preview deployments' }).check();
      await form.getByRole('button', { name: 'Save changes' }).click();
      await expect.poll(() => page.getByRole('status').first().textContent()).toBe('Endpoint changed.');
      await expect.poll(() => endpoint.textContent()).toContain('task.created, task.deleted');
      await expect.poll(() => endpoint.textContent()).toContain('Delivered from previews too');
      expect(await db().webhookEndpoint.findUniqueOrThrow({ where: { id: created.id } })).toMatchObject({
        events: ['task.created', 'task.deleted'],
        deliverOnPreviews: true,
      });
      expect(await db().auditEvent.findMany({ where: { action: 'webhook_endpoint.updated', targetId: created.id } })).toMatchObject([
        {
          actorType: 'person',
          actorId: owner.id,
          changes: {
            events: { before: ['task.created'], after: ['task.created', 'task.deleted'] },
            deliverOnPreviews: { before: false, after: true },
          },
        },
      ]);
      await page.close();
    });

    it('asks an owner of two workspaces which one, and deletes an endpoint only once confirmed', async () => {
      const other = await createWorkspace(db(), { slug: `beta-${randomBytes(3).toString('hex')}`, name: 'Beta Corp' });
      await addMember(db(), { workspaceId: other.id, email: owner.email, name: owner.name, role: 'owner' }, FIXTURE_AUDIT);
      const url = receiver.url('deleted');
      await createEndpoint(db(), fx.workspace.id, { url, events: [], projectId: null }, FIXTURE_AUDIT);
      const page = await signedIn.context.newPage();
      await page.goto(`${app.baseUrl}/settings/webhooks`);
      await page.getByRole('heading', { name: 'Choose a workspace' }).waitFor();
      await page.getByRole('link', { name: fx.workspace.name }).click();
      await page.waitForURL(new RegExp(`/settings/webhooks\\?workspace=${fx.workspace.slug}$`));
      const endpoint = page.getByRole('article', { name: url });

      await endpoint.getByRole('button', { name: 'Delete' }).click();
      const dialog = page.getByRole('dialog', { name: `Delete ${url}?` });
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      expect(await dialog.count()).toBe(0);
      expect(await endpoint.count()).toBe(1);

      await endpoint.getByRole('button', { name: 'Delete' }).click();
      await dialog.getByRole('button', { name: 'Delete endpoint' }).click();
      await expect.poll(() => page.getByRole('status').first().textContent()).toBe('Endpoint deleted.');
      expect(await endpoint.count()).toBe(0);
      expect(await db().webhookEndpoint.count({ where: { workspaceId: fx.workspace.id, url } })).toBe(0);

      const switcher = page.getByRole('form', { name: 'Switch workspace' });
      await switcher.getByLabel('Workspace').selectOption({ label: 'Beta Corp' });
      await switcher.getByRole('button', { name: 'Switch' }).click();
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Webhooks · Beta Corp');
      await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'API keys' }).click();
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('API keys · Beta Corp');
      await page.close();
    });

    it('rotates a secret keeping the old one for a day, or stopping it at once when it leaked', async () => {
      const url = receiver.url('rotated');
      await createEndpoint(db(), fx.workspace.id, { url, events: [], projectId: null }, FIXTURE_AUDIT);
      const page = await signedIn.context.newPage();
      await page.goto(`${app.baseUrl}/settings/webhooks?workspace=${fx.workspace.slug}`);
      const endpoint = page.getByRole('article', { name: url });
      const kept = endpoint.getByText(/^The previous secret also signs deliveries; it stops in 1 day\.$/);

      await endpoint.getByRole('button', { name: 'Rotate secret' }).click();
      const dialog = page.getByRole('dialog', { name: `Rotate the secret of ${url}?` });
      expect(await dialog.getByRole('checkbox', { name: /leaked/ }).isChecked()).toBe(false);
      await dialog.getByRole('button', { name: 'Rotate secret' }).click();
      await expect.poll(() => page.getByRole('status').first().textContent()).toBe('Secret rotated.');
      expect(await page.getByRole('textbox', { name: 'Signing secret' }).inputValue()).toMatch(/^whsec_/);
      await expect.poll(() => kept.count()).toBe(1);

      await endpoint.getByRole('button', { name: 'Rotate secret' }).click();
      await dialog.getByRole('checkbox', { name: /leaked/ }).check();
      await dialog.getByRole('button', { name: 'Rotate secret' }).click();
      await expect.poll(() => kept.count()).toBe(0);
      const stored = await db().webhookEndpoint.findFirstOrThrow({ where: { workspaceId: fx.workspace.id, url } });
      expect(stored.previousSecretSealed).toBeNull();
      await page.close();
    });
  });

  it('shows a member that only owners and admins manage webhooks', async () => {
    const member = await createPerson(fx.workspace.id, 'member');
    const page = await browser.context.newPage();
    await signInThroughPage(page, app.baseUrl, member);
    await page.goto(`${app.baseUrl}/settings/webhooks?workspace=${fx.workspace.slug}`);
    await expect.poll(() => page.getByRole('status').first().textContent()).toContain('only its owners and admins can manage its webhooks');
    expect(await page.getByRole('button', { name: 'Add endpoint' }).count()).toBe(0);
    await page.close();
  });
});
