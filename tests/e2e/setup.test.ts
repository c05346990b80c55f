import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../server/db/client';
import { launchBrowser, type Browser } from './browser';
import { ensureBuild } from '../support/build';
import { startAppServer, type AppServer } from './app-server';

// A database without users: /sign-in leads to /setup.
let app: AppServer;
let browser: Browser;

beforeAll(async () => {
  await ensureBuild();
  app = await startAppServer(process.env.DATABASE_URL!);
  browser = await launchBrowser(app.baseUrl);
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/** The code the server logged when /setup was opened, in its one line that holds it. */
async function loggedSetupCode(): Promise<string> {
  await expect.poll(() => app.events().some((event) => event.event === 'setup.code')).toBe(true);
  const line = app.events().find((event) => event.event === 'setup.code')!;
  return /^Setup code: (\S+) \(enter it at \S+\/setup /.exec(String(line.message))![1]!;
}

async function fillSetup(page: Page, code?: string) {
  await page.getByLabel('Setup code').fill(code ?? (await loggedSetupCode()));
  await page.getByLabel('Workspace name').fill('Acme');
  await page.getByLabel(/Workspace slug/).fill('acme');
  await page.getByLabel('Your name').fill('Ada Lovelace');
  await page.getByLabel('Your email').fill('ada@acme.test');
  await page.getByLabel(/Password/).fill('correct horse battery');
  await page.getByRole('button', { name: 'Create workspace and owner' }).click();
}

describe('the setup page in a browser', () => {
  it('fits a 390 px screen and posts its form, password and all, in a body when its script has not run', async () => {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.route('**/_next/static/**/*.js', (route) => route.abort());
    await page.goto(`${app.baseUrl}/sign-in`);
    await page.waitForURL(/\/setup$/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    const posted = page.waitForRequest((request) => request.method() === 'POST');
    await fillSetup(page);

    const request = await posted;
    expect(request.url()).toBe(`${app.baseUrl}/setup`);
    expect(request.postData()).toContain('password=correct+horse+battery');
    await expect
      .poll(() => page.locator('form').getByRole('alert').textContent())
      .toContain("Nothing was sent: the page's script had not loaded");
    expect(page.url()).toBe(`${app.baseUrl}/setup`);
    expect(await db().user.count()).toBe(0);
    await page.close();
  });

  it("explains a setup refused at another address than the app's", async () => {
    const elsewhere = app.baseUrl.replace('127.0.0.1', 'localhost');
    const page = await browser.context.newPage();
    await page.goto(`${elsewhere}/setup`);
    await fillSetup(page);

    await expect
      .poll(() => page.locator('form').getByRole('alert').textContent())
      .toContain(`This page is open at ${elsewhere}, but the app's address is ${app.baseUrl}`);
    expect(await db().user.count()).toBe(0);
    await page.close();
  });

  it('says where the setup code is, refuses a wrong one, and with the one in the log signs the new owner in', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${app.baseUrl}/setup`);
    await expect
      .poll(() => page.locator('#setupCode-help').textContent())
      .toContain('In the server’s log, in the line that starts with “Setup code:”');
    await fillSetup(page, 'AAAA-AAAA-AAAA-AAAA-AAAA');
    await expect.poll(() => page.locator('form').getByRole('alert').textContent()).toContain('That is not the setup code.');
    expect(await db().user.count()).toBe(0);
    await fillSetup(page);
    await page.waitForURL(/\/settings\/api-keys/);
    expect(await db().membership.findMany({ select: { role: true, user: { select: { email: true } } } })).toEqual([
      { role: 'owner', user: { email: 'ada@acme.test' } },
    ]);
    expect(await page.content()).not.toContain(await loggedSetupCode());
    await page.close();
  });
});
