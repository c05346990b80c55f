import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../server/db/client';
import { createApiKey } from '../../server/keys/manage';
import { createGrant } from '../../server/oauth/grants';
import { ensureBuild } from '../support/build';
import { createWorkspaceFixture, FIXTURE_AUDIT, type WorkspaceFixture } from '../support/fixtures';
import { PATIENCE_MS } from '../support/patience';
import { logRequests } from '../support/request-records';
import { createPerson } from '../support/settings';
import { startAppServer, type AppServer } from './app-server';
import { launchBrowser, signInThroughPage, type Browser } from './browser';

const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;
const USER_AGENT = 'usage-pages-test/1.0';

let app: AppServer;
let browser: Browser;
let fx: WorkspaceFixture;
let owner: Awaited<ReturnType<typeof createPerson>>;
let member: { email: string; password: string };
let key: { id: string; name: string };
let appId: string;
/** The X-Request-Id of each request sent with the key, in the order sent. */
const sent: { requestId: string; status: number }[] = [];

beforeAll(async () => {
  await ensureBuild();
  fx = await createWorkspaceFixture();
  app = await startAppServer(process.env.DATABASE_URL!);
  browser = await launchBrowser(app.baseUrl);
  owner = await createPerson(fx.workspace.id, 'owner');
  member = await createPerson(fx.workspace.id, 'member');
  // Signed in once: sign-in allows three attempts in 10 s from one address. The member signs in last.
  const signing = await browser.context.newPage();
  await signInThroughPage(signing, app.baseUrl, owner);
  await signing.close();

  const created = await createApiKey(
    db(),
    fx.workspace.id,
    { name: 'Usage probe', scopes: ['task:read'], projectId: null, expiresAt: null },
    null,
    FIXTURE_AUDIT,
  );
  key = { id: created.id, name: 'Usage probe' };
  // Six answers of 200 and three of 404, through the API as an integrator sends them.
  for (const path of [...Array<string>(6).fill('/web/statuses'), ...Array<string>(3).fill('/web/tasks/WEB-999999')]) {
    const answer = await fetch(`${app.baseUrl}/v1/public${path}`, {
      headers: { authorization: `Bearer ${created.key}`, 'user-agent': USER_AGENT },
    });
    await answer.arrayBuffer();
    sent.push({ requestId: answer.headers.get('x-request-id')!, status: answer.status });
  }
  expect(sent.map(({ status }) => status)).toEqual([200, 200, 200, 200, 200, 200, 404, 404, 404]);
  // The server writes its log within a second of the answers.
  for (const deadline = Date.now() + PATIENCE_MS; (await loggedRequests(key.id)) < 9;) {
    if (Date.now() > deadline) throw new Error('The requests sent were not logged');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  const clientId = `usage-${randomUUID()}`;
  await db().oauthClient.create({
    data: {
      id: randomUUID(),
      clientId,
      name: 'Roadmap sync',
      redirectUris: ['http://127.0.0.1:43117/callback'],
      tokenEndpointAuthMethod: 'none',
    },
  });
  appId = await createGrant(
    db(),
    {
      workspaceId: fx.workspace.id,
      clientId,
      appName: 'Roadmap sync',
      scopes: ['task:read'],
      projectId: null,
      approvedById: owner.id,
    },
    FIXTURE_AUDIT,
  );
  const now = Date.now();
  await logRequests(fx.workspace.id, { id: appId, kind: 'app' }, [
    { occurredAt: new Date(now - 3 * 60_000), status: 200 },
    { occurredAt: new Date(now - 2 * 60_000), status: 429 },
    { occurredAt: new Date(now - 60_000), status: 200, method: 'POST', route: 'tools/call list_tasks' },
  ]);
});

async function loggedRequests(principalId: string) {
  const [row] = await db().$queryRaw<
    { n: number }[]
  >`SELECT count(*)::int AS n FROM request_log.request WHERE principal_id = ${principalId}::uuid`;
  return row?.n ?? 0;
}

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/** A page of the signed-in owner's browser at a width. */
async function open(width: number, height: number) {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width, height });
  return page;
}

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
const usageUrl = (range: string) => `${app.baseUrl}/settings/usage?workspace=${fx.workspace.slug}&range=${range}`;

describe.each(WIDTHS)('at $width px', ({ width, height }) => {
  it('shows an owner the usage charts with the counts that were sent, for the range in the URL', async () => {
    const page = await open(width, height);
    await page.goto(usageUrl('1h'));
    const chart = page.getByRole('img', { name: /^Requests by status class/ });
    expect(await chart.getAttribute('aria-label')).toBe('Requests by status class: 12 in all; 2xx 8, 4xx 3, 429 1, 5xx 0');
    const legend = page.getByRole('list', { name: 'Requests by status class' });
    expect(await legend.innerText()).toMatch(/^2xx\s+8\s+4xx\s+3\s+429\s+1\s+5xx\s+0$/);
    // One bar per minute of the hour, the hour's first minute included.
    expect(await chart.locator('g').count()).toBeGreaterThanOrEqual(60);
    const figures = page.getByRole('definition');
    expect(await figures.allInnerTexts()).toEqual(['12', '33 %', expect.stringMatching(/ms$/), '1']);
    expect(await page.getByRole('img', { name: /^Error rate/ }).count()).toBe(1);
    expect(await page.getByRole('img', { name: /^p95 duration/ }).count()).toBe(1);

    const topKeys = page.getByRole('region', { name: 'Top keys and apps' });
    expect(await topKeys.getByRole('row', { name: /Usage probe/ }).innerText()).toMatch(/Usage probe\s+9\s+33 %/);
    expect(await topKeys.getByRole('row', { name: /Roadmap sync/ }).innerText()).toMatch(/Roadmap sync\s+3\s+33 %/);
    const topRoutes = page.getByRole('region', { name: 'Top routes' });
    expect(await topRoutes.getByRole('row', { name: /GET \/v1\/public\/\{projectSlug\}\/statuses/ }).innerText()).toMatch(/\s6\s/);
    expect(await overflow(page)).toBeLessThanOrEqual(0);

    await page.getByRole('navigation', { name: 'Range' }).getByRole('link', { name: 'Last 7 days' }).click();
    await page.waitForURL(/range=7d/);
    await expect
      .poll(() => page.getByRole('navigation', { name: 'Range' }).locator('[aria-current="page"]').textContent())
      .toBe('Last 7 days');
    expect(await page.getByRole('img', { name: /^Requests by status class/ }).getAttribute('aria-label')).toContain('12 in all');
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await page.close();
  });

  it("lists each key's and app's requests of the last 24 hours, and leads to its page with its last use, recent requests and audit trail", async () => {
    const page = await open(width, height);
    await page.goto(`${app.baseUrl}/settings/api-keys?workspace=${fx.workspace.slug}`);
    const row = page.getByRole('row', { name: /Usage probe/ });
    expect(await row.locator('td[data-label="Last used"]').innerText()).toMatch(/\s9 in 24 h\s+33 % errors$/);
    expect(await overflow(page)).toBeLessThanOrEqual(0);

    await row.getByRole('link', { name: 'Usage probe' }).click();
    await page.waitForURL(new RegExp(`/settings/api-keys/${key.id}\\?workspace=`));
    const lastUse = page.getByRole('region', { name: 'Last use' });
    await expect.poll(() => lastUse.innerText()).toContain(USER_AGENT);
    expect(await lastUse.innerText()).toContain('127.0.0.1');
    const requests = page.getByRole('region', { name: 'Recent requests' }).locator('tbody tr');
    expect(await requests.evaluateAll((rows) => rows.map((tr) => tr.getAttribute('data-request-id')))).toEqual(
      sent.map(({ requestId }) => requestId).reverse(),
    );
    expect(await requests.first().innerText()).toMatch(/404[\s\S]*GET[\s\S]*\/v1\/public\/\{projectSlug\}\/tasks\/\{taskId\}/);
    const trail = page.getByRole('region', { name: 'Audit trail' }).locator('tbody tr');
    expect(await trail.evaluateAll((rows) => rows.map((tr) => tr.getAttribute('data-audit-event')))).toEqual(['api_key.created']);
    expect(await overflow(page)).toBeLessThanOrEqual(0);

    await page.goto(`${app.baseUrl}/settings/apps?workspace=${fx.workspace.slug}`);
    const appRow = page.getByRole('row', { name: /Roadmap sync/ });
    expect(await appRow.locator('td[data-label="Last used"]').innerText()).toMatch(/\s3 in 24 h\s+33 % errors$/);
    await appRow.getByRole('link', { name: 'Roadmap sync' }).click();
    await page.waitForURL(new RegExp(`/settings/apps/${appId}\\?workspace=`));
    await expect.poll(() => page.getByRole('region', { name: 'Last use' }).innerText()).toContain('203.0.113.7');
    const appTrail = page.getByRole('region', { name: 'Audit trail' }).locator('tbody tr');
    expect(await appTrail.evaluateAll((rows) => rows.map((tr) => tr.getAttribute('data-audit-event')))).toEqual(['oauth_app.connected']);
    expect(await page.getByRole('region', { name: 'Recent requests' }).locator('tbody tr').first().innerText()).toContain(
      'tools/call list_tasks',
    );
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await page.close();
  });
});

describe('who may see it', () => {
  it("answers 404 for another workspace's key or app, and for an id that is none", async () => {
    const other = await createWorkspaceFixture();
    const otherKey = await createApiKey(
      db(),
      other.workspace.id,
      { name: 'Elsewhere', scopes: ['task:read'], projectId: null, expiresAt: null },
      null,
      FIXTURE_AUDIT,
    );
    const page = await open(390, 844);
    for (const path of [`api-keys/${otherKey.id}`, `apps/${otherKey.id}`, `apps/${key.id}`, `api-keys/${appId}`, 'api-keys/not-an-id']) {
      const answer = await page.goto(`${app.baseUrl}/settings/${path}?workspace=${fx.workspace.slug}`);
      expect(answer?.status(), path).toBe(404);
      expect(await page.getByRole('heading', { level: 1 }).first().textContent()).toMatch(/404|could not be found/);
      expect(await page.content()).not.toContain('Elsewhere');
    }
    await page.close();
  });

  it('tells a member they lack the right, on the usage page and on a key’s page', async () => {
    const page = await open(1280, 800);
    await signInThroughPage(page, app.baseUrl, member);
    await page.goto(usageUrl('24h'));
    await expect.poll(() => page.getByRole('status').first().textContent()).toContain('only its owners and admins can see its usage');
    expect(await page.getByRole('img').count()).toBe(0);
    await page.goto(`${app.baseUrl}/settings/api-keys/${key.id}?workspace=${fx.workspace.slug}`);
    await expect.poll(() => page.getByRole('status').first().textContent()).toContain('only its owners and admins can see its API keys');
    expect(await page.content()).not.toContain(USER_AGENT);
    await page.close();
  });
});
