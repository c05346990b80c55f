import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuild } from '../support/build';
import { createWorkspaceFixture, type WorkspaceFixture } from '../support/fixtures';
import { createPerson } from '../support/settings';
import { startAppServer, type AppServer } from './app-server';
import { launchBrowser, signInThroughPage, type Browser } from './browser';

let app: AppServer;
let browser: Browser;
let fx: WorkspaceFixture;

beforeAll(async () => {
  await ensureBuild();
  fx = await createWorkspaceFixture();
  app = await startAppServer(process.env.DATABASE_URL!);
  browser = await launchBrowser(app.baseUrl);
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('the audit log page in a browser', () => {
  for (const { name, width } of [
    { name: 'desktop', width: 1280 },
    { name: 'phone', width: 390 },
  ]) {
    it(`at ${width} px an owner filters by action group, keeps the filter in the URL and opens an event (${name})`, async () => {
      const owner = await createPerson(fx.workspace.id, 'owner');
      await fx.key({ name: `Key made for the ${name} test` });
      const page = await browser.context.newPage();
      await page.setViewportSize({ width, height: 844 });
      await signInThroughPage(page, app.baseUrl, owner);
      await page.goto(`${app.baseUrl}/settings/audit-log?workspace=${fx.workspace.slug}`);
      // The owner's own sign-in is the newest event.
      await page
        .getByRole('row', { name: /sign_in\.succeeded/ })
        .first()
        .waitFor();

      await page.getByLabel('Action').selectOption('api_key');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.waitForURL(/action=api_key/);
      await page.getByRole('row', { name: new RegExp(`Key made for the ${name} test`) }).waitFor();
      expect(await page.getByRole('row', { name: /sign_in\./ }).count()).toBe(0);

      await page
        .getByRole('link', { name: /^Details of api_key\.created/ })
        .first()
        .click();
      await page.waitForURL(/event=/);
      await page.getByRole('heading', { name: 'Event', exact: true }).waitFor();
      expect(page.url()).toContain('action=api_key');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await page.close();
    });
  }

  it('tells a member that only owners and admins read the audit log', async () => {
    const member = await createPerson(fx.workspace.id, 'member');
    const page = await browser.context.newPage();
    await signInThroughPage(page, app.baseUrl, member);
    await page.goto(`${app.baseUrl}/settings/audit-log?workspace=${fx.workspace.slug}`);
    await expect.poll(() => page.getByRole('status').first().textContent()).toContain('only its owners and admins can read its audit log');
    expect(await page.getByRole('table').count()).toBe(0);
    await page.close();
  });
});
