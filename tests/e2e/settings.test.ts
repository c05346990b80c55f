import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../support/client';
import { createWorkspaceFixture, type WorkspaceFixture } from '../support/fixtures';
import { createPerson } from '../support/settings';
import { launchBrowser, signInThroughPage, type Browser } from './browser';
import { ensureBuild } from '../support/build';
import { startAppServer, type AppServer } from './app-server';

const root = path.resolve(import.meta.dirname, '../..');
const artifacts = path.join(root, 'test-artifacts');

let app: AppServer;
let browser: Browser;
let fx: WorkspaceFixture;

beforeAll(async () => {
  await ensureBuild();
  fx = await createWorkspaceFixture();
  app = await startAppServer(process.env.DATABASE_URL!);
  browser = await launchBrowser(app.baseUrl);
  await fs.mkdir(artifacts, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

async function signIn(page: Page, email: string, password: string) {
  await page.context().clearCookies();
  await page.goto(`${app.baseUrl}/settings/api-keys`);
  await page.waitForURL(/\/sign-in$/);
  await signInThroughPage(page, app.baseUrl, { email, password });
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(/\/sign-in$/);
}

describe('the API keys page in a browser', () => {
  it('lets an admin sign in, issue a key, see it once, use it and revoke it', async () => {
    const admin = await createPerson(fx.workspace.id, 'admin');
    const page = await browser.context.newPage();
    await signIn(page, admin.email, admin.password);

    await page.getByLabel('Name').fill('Read-only web bot');
    await page.getByRole('checkbox', { name: /task:read/ }).check();
    await page.getByLabel('Projects').selectOption({ label: 'Only Web' });
    await page.getByLabel('Expires').selectOption({ label: 'In 30 days' });
    await page.getByRole('button', { name: 'Create key' }).click();

    const heading = page.getByRole('heading', { name: 'Your new key “Read-only web bot”' });
    await expect.poll(() => heading.evaluate((element) => element === document.activeElement)).toBe(true);
    await expect.poll(() => page.getByText('It cannot be shown again').count()).toBe(1);
    await expect.poll(() => page.getByRole('row', { name: /Read-only web bot/ }).count()).toBe(1);
    await page.screenshot({ path: path.join(artifacts, 'api-keys-reveal.png'), fullPage: true });

    await page.getByRole('button', { name: 'Copy key' }).click();
    await expect.poll(() => page.getByText('Copied to the clipboard.').count()).toBe(1);
    const key = await page.evaluate(() => navigator.clipboard.readText());
    expect(key).toMatch(/^tk_[0-9a-f]{40}$/);
    expect(await page.getByLabel('New API key').inputValue()).toBe(key);

    const api = apiClient(app.baseUrl, key);
    expect((await api.get('/web/tasks')).status).toBe(200);
    expect((await api.get('/api/tasks')).status).toBe(403);
    expect((await api.post('/web/tasks', { title: 'Not allowed' })).status).toBe(403);

    await page.reload();
    const row = page.getByRole('row', { name: /Read-only web bot/ });
    await expect.poll(() => row.textContent()).toContain(`tk_…${key.slice(-4)}`);
    expect(await page.content()).not.toContain(key);
    expect(await page.evaluate(() => document.body.innerText)).not.toContain(key);
    expect(await row.textContent()).toMatch(/task:read.*Web.*by An admin.*Active/);
    await page.screenshot({ path: path.join(artifacts, 'api-keys-list.png'), fullPage: true });

    // By keyboard: the dialog opens on Cancel, one step back is the confirmation.
    await row.getByRole('button', { name: 'Revoke Read-only web bot' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Revoke “Read-only web bot”?' });
    await expect.poll(() => dialog.getByRole('button', { name: 'Cancel' }).evaluate((b) => b === document.activeElement)).toBe(true);
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await expect.poll(() => row.textContent()).toContain('Revoked');
    expect((await api.get('/web/tasks')).status).toBe(401);

    await signOut(page);
    await page.close();
  });

  it("fits a 390 px screen, with every key's Revoke button on it", async () => {
    const admin = await createPerson(fx.workspace.id, 'admin');
    await fx.key({ name: 'Nightly export to the data warehouse' });
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, admin.email, admin.password);
    const revoke = page.getByRole('button', { name: 'Revoke Nightly export to the data warehouse' });
    await revoke.waitFor();

    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await revoke.scrollIntoViewIfNeeded();
    const box = (await revoke.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await signOut(page);
    await page.close();
  });

  it('sends the sign-in form as a POST body when its script has not run, and says so', async () => {
    const admin = await createPerson(fx.workspace.id, 'admin');
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    const posts: string[] = [];
    page.on('request', (request) => request.method() === 'POST' && posts.push(request.url()));
    // As under `next dev` at an address it does not serve its scripts to: the page's code never runs.
    await page.route('**/_next/static/**/*.js', (route) => route.abort());
    await page.goto(`${app.baseUrl}/sign-in`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.getByLabel('Email').fill(admin.email);
    await page.getByLabel('Password').fill(admin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();

    await expect
      .poll(() => page.locator('form').getByRole('alert').textContent())
      .toContain("Nothing was sent: the page's script had not loaded");
    expect(page.url()).toBe(`${app.baseUrl}/sign-in`);
    expect(posts).toEqual([`${app.baseUrl}/sign-in`]);
    await page.close();
  });

  it.each([
    ['with its script', false],
    ['without its script', true],
  ])("explains a sign-in refused at another address than the app's, %s", async (_, blockScripts) => {
    const admin = await createPerson(fx.workspace.id, 'admin');
    // The app's address is 127.0.0.1; localhost reaches the same server, from another origin.
    const elsewhere = app.baseUrl.replace('127.0.0.1', 'localhost');
    const page = await browser.context.newPage();
    if (blockScripts) await page.route('**/_next/static/**/*.js', (route) => route.abort());
    await page.goto(`${elsewhere}/sign-in`);
    await page.getByLabel('Email').fill(admin.email);
    await page.getByLabel('Password').fill(admin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();

    await expect
      .poll(() => page.locator('form').getByRole('alert').textContent())
      .toBe(
        `This page is open at ${elsewhere}, but the app's address is ${app.baseUrl}: sign-in and setup accept requests only ` +
          `from the app's own address, so this one was refused. Open ${app.baseUrl}/sign-in and try again.`,
      );
    expect(page.url()).toBe(`${elsewhere}/sign-in`);
    await page.close();
  });

  it('has no /setup page once a user exists', async () => {
    expect((await fetch(`${app.baseUrl}/setup`)).status).toBe(404);
  });

  it('shows a member who signs in that they lack the right, not an error page', async () => {
    const member = await createPerson(fx.workspace.id, 'member');
    const page = await browser.context.newPage();
    await signIn(page, member.email, member.password);
    await expect
      .poll(() => page.getByRole('status').first().textContent())
      .toContain('only its owners and admins can create and revoke API keys');
    expect(await page.getByRole('button', { name: 'Create key' }).count()).toBe(0);
    await signOut(page);
    await page.close();
  });
});
