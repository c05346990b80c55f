import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { db } from '../../server/db/client';
import { createGrant } from '../../server/oauth/grants';
import { addMember } from '../../server/workspaces/members';
import { createEndpoint } from '../../server/webhooks/endpoints';
import type { WorkspaceFixture } from '../support/fixtures';
import { pkce, registerClient } from '../support/oauth';

/** What every page of the look test is shown with: the app, and a workspace whose owner is signed in. */
export interface LookContext {
  baseUrl: string;
  fx: WorkspaceFixture;
}

/**
 * A page the look test checks and photographs at each width. A new page people sign
 * in to joins the test by being added to LOOK_PAGES; its screenshots are
 * `tests/e2e/screenshots/<name>-desktop.png` and `<name>-phone.png`.
 */
export interface LookPage {
  name: string;
  /** Once, before any width: the data the page should show (the workspace starts with none of it). */
  prepare(context: LookContext): Promise<void>;
  /** Opens the page in the signed-in browser and waits until it shows what the screenshot should. */
  open(page: Page, context: LookContext): Promise<void>;
  /** False for a page that shows no time at all (the consent page). */
  showsTimes?: false;
}

const ago = (ms: number) => new Date(Date.now() - ms);
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

export const WEBHOOK_URL = 'https://hooks.example.com/task-api/events';

const apiKeys: LookPage = {
  name: 'api-keys',
  async prepare({ fx }) {
    await fx.key({ name: 'Nightly export to the data warehouse', scopes: ['task:read'] });
    await fx.key({ name: 'CI deploy bot', projectId: fx.projects.web.id, expiresAt: new Date(Date.now() + 30 * DAY) });
    await fx.key({ name: 'Old import script' });
    await fx.key({ name: 'Laptop of a former contractor' });
    const keys = db().apiKey;
    const named = (name: string) => ({ workspaceId: fx.workspace.id, name });
    await keys.updateMany({ where: { workspaceId: fx.workspace.id }, data: { createdAt: ago(12 * DAY), lastUsedAt: ago(3 * MINUTE) } });
    await keys.updateMany({
      where: named('Old import script'),
      data: { createdAt: ago(120 * DAY), expiresAt: ago(2 * DAY), lastUsedAt: ago(5 * DAY) },
    });
    await keys.updateMany({
      where: named('Laptop of a former contractor'),
      data: { revokedAt: ago(DAY), lastUsedAt: ago(26 * 60 * MINUTE) },
    });
  },
  async open(page, { baseUrl, fx }) {
    await page.goto(`${baseUrl}/settings/api-keys?workspace=${fx.workspace.slug}`);
    await page.getByRole('row', { name: /CI deploy bot/ }).waitFor();
  },
};

const webhooks: LookPage = {
  name: 'webhooks',
  async prepare({ fx }) {
    const endpoint = await createEndpoint(db(), fx.workspace.id, {
      url: WEBHOOK_URL,
      events: ['task.created', 'task.updated'],
      projectId: null,
    });
    await db().webhookEndpoint.update({ where: { id: endpoint.id }, data: { createdAt: ago(9 * DAY) } });
    await db().webhookDelivery.createMany({
      data: [
        { status: 'delivered' as const, responseCode: 204, durationMs: 87, attempts: 1, createdAt: ago(2 * MINUTE) },
        { status: 'failed' as const, responseCode: 503, durationMs: 1204, attempts: 3, createdAt: ago(40 * MINUTE) },
        { status: 'delivered' as const, responseCode: 200, durationMs: 112, attempts: 2, createdAt: ago(26 * 60 * MINUTE) },
      ].map((delivery) => ({
        ...delivery,
        endpointId: endpoint.id,
        messageId: `msg_${randomUUID()}`,
        eventType: 'task.created',
        payload: '{}',
      })),
    });
  },
  async open(page, { baseUrl, fx }) {
    await page.goto(`${baseUrl}/settings/webhooks?workspace=${fx.workspace.slug}`);
    await page.getByRole('article', { name: WEBHOOK_URL }).getByRole('button', { name: 'Show deliveries' }).click();
    await page.getByRole('row', { name: /503/ }).waitFor();
  },
};

/** An app registered as an OAuth client, as an MCP client registers itself. */
async function oauthClient(name: string) {
  const clientId = `look-${randomUUID()}`;
  await db().oauthClient.create({
    data: { id: randomUUID(), clientId, name, redirectUris: ['http://127.0.0.1:43117/callback'], tokenEndpointAuthMethod: 'none' },
  });
  return clientId;
}

const connectedApps: LookPage = {
  name: 'apps',
  async prepare({ fx }) {
    const approver = await addMember(db(), {
      workspaceId: fx.workspace.id,
      email: `priya-${randomUUID()}@acme.test`,
      name: 'Priya Raman',
      role: 'admin',
      password: `pw-${randomUUID()}`,
    });
    const grant = async (appName: string, scopes: ('task:read' | 'task:create' | 'task:update')[], projectId: string | null) =>
      createGrant(db(), {
        workspaceId: fx.workspace.id,
        clientId: await oauthClient(appName),
        appName,
        scopes,
        projectId,
        approvedById: approver.id,
      });
    const claude = await grant('Claude', ['task:read', 'task:create', 'task:update'], null);
    const sync = await grant('Roadmap sync', ['task:read'], fx.projects.web.id);
    const old = await grant('Cursor', ['task:read', 'task:update'], null);
    const keys = db().apiKey;
    await keys.update({ where: { id: claude }, data: { createdAt: ago(6 * DAY), lastUsedAt: ago(2 * MINUTE) } });
    await keys.update({ where: { id: sync }, data: { createdAt: ago(30 * DAY), lastUsedAt: ago(5 * 60 * MINUTE) } });
    await keys.update({ where: { id: old }, data: { createdAt: ago(60 * DAY), lastUsedAt: ago(20 * DAY), revokedAt: ago(3 * DAY) } });
  },
  async open(page, { baseUrl, fx }) {
    await page.goto(`${baseUrl}/settings/apps?workspace=${fx.workspace.slug}`);
    await page.getByRole('row', { name: /Roadmap sync/ }).waitFor();
  },
};

const consent: LookPage = {
  name: 'consent',
  showsTimes: false,
  async prepare() {},
  async open(page, { baseUrl }) {
    // An MCP client's registration and authorization request, as Claude sends them; the browser follows to the consent page.
    const client = await registerClient(baseUrl, { client_name: 'Claude' });
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: client.body.client_id,
      redirect_uri: 'http://127.0.0.1:43117/callback',
      scope: 'task:read task:create',
      state: 'look',
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
      resource: `${baseUrl}/v1/mcp`,
    });
    await page.goto(`${baseUrl}/api/auth/oauth2/authorize?${query}`);
    await page.getByRole('heading', { name: 'Connect Claude' }).waitFor();
  },
};

export const LOOK_PAGES: LookPage[] = [apiKeys, webhooks, connectedApps, consent];
