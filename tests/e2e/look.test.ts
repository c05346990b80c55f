import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../server/db/client';
import { createEndpoint } from '../../server/webhooks/endpoints';
import { addMember } from '../../server/workspaces/members';
import { createWorkspace } from '../../server/workspaces/workspaces';
import { FIXTURE_AUDIT, createWorkspaceFixture, type WorkspaceFixture } from '../support/fixtures';
import { createPerson } from '../support/settings';
import { launchBrowser, signInThroughPage, type Browser } from './browser';
import { ensureBuild } from '../support/build';
import { startAppServer, type AppServer } from './app-server';
import { LOOK_PAGES, WEBHOOK_URL, type LookContext } from './look-pages';

// The endpoints' example host is not resolved: private addresses allowed skips the lookup.
process.env.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = 'true';

const root = path.resolve(import.meta.dirname, '../..');
const artifacts = path.join(root, 'test-artifacts');
// Committed for the guide's pages (docs/); rewritten only on request, so test runs leave the tree clean.
const screenshots = path.join(import.meta.dirname, 'screenshots');

const WIDTHS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

// A reader far from UTC, so a time rendered in the server's zone would show.
const READER = { timezoneId: 'Asia/Kolkata', locale: 'en-US' };
const RAW_ISO = /\d{4}-\d\d-\d\dT\d\d:\d\d/;
const RELATIVE = /^(just now|in \d+ (minute|hour|day|month|year)s?|\d+ (minute|hour|day|month|year)s? ago)$/;

let app: AppServer;
let browser: Browser;
let fx: WorkspaceFixture;
let emptySlug: string;
let context: LookContext;

beforeAll(async () => {
  await ensureBuild();
  fx = await createWorkspaceFixture();
  app = await startAppServer(process.env.DATABASE_URL!);
  context = { baseUrl: app.baseUrl, fx };
  for (const lookPage of LOOK_PAGES) await lookPage.prepare(context);

  // The owner is in a second workspace with nothing in it: the empty states, and the switcher between the two.
  const owner = await createPerson(fx.workspace.id, 'owner');
  const empty = await createWorkspace(db(), { slug: `empty-${fx.workspace.slug}`, name: 'Empty Co' });
  await addMember(db(), { workspaceId: empty.id, email: owner.email, name: owner.name, role: 'owner' }, FIXTURE_AUDIT);
  emptySlug = empty.slug;

  browser = await launchBrowser(app.baseUrl, READER);
  const page = await browser.context.newPage();
  await signInThroughPage(page, app.baseUrl, owner);
  await page.close();
  await fs.mkdir(artifacts, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/** A page at a width, with every error the browser reports (a hydration mismatch is one) collected. */
async function openAt(width: number, height: number) {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width, height });
  const errors: string[] = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  page.on('pageerror', (error) => errors.push(error.message));
  return { page, errors };
}

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

async function times(page: Page) {
  return page.locator('time').evaluateAll((elements) =>
    elements.map((element) => ({
      text: element.textContent,
      dateTime: element.getAttribute('datetime'),
      title: element.getAttribute('title'),
    })),
  );
}

async function saveScreenshots(page: Page, file: string) {
  await page.screenshot({ path: path.join(artifacts, file), fullPage: true });
  const guideCopy = path.join(screenshots, file);
  if (process.env.UPDATE_SCREENSHOTS === '1' || !(await fs.stat(guideCopy).catch(() => null)))
    await fs.copyFile(path.join(artifacts, file), guideCopy);
}

describe.each(LOOK_PAGES)('the $name page', (lookPage) => {
  it.each(WIDTHS)(
    'at $width px shows no raw timestamp, each time relative with the exact one in the reader’s zone on hover, and nothing past the right edge',
    async ({ name, width, height }) => {
      const { page, errors } = await openAt(width, height);
      await lookPage.open(page, context);
      // After hydration the browser replaces the server's UTC text with the relative one.
      await expect.poll(async () => (await times(page)).every(({ text }) => RELATIVE.test(text ?? ''))).toBe(true);

      expect(await page.evaluate(() => document.body.innerText)).not.toMatch(RAW_ISO);
      const shown = await times(page);
      if (lookPage.showsTimes !== false) expect(shown.length).toBeGreaterThan(0);
      for (const time of shown) {
        expect(time.text).toMatch(RELATIVE);
        expect(time.title).toContain(new Date(time.dateTime!).toISOString());
        expect(time.title).toContain('GMT+5:30');
      }
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      expect(errors).toEqual([]);
      await saveScreenshots(page, `${lookPage.name}-${name}.png`);
      await page.close();
    },
  );
});

describe('times', () => {
  it('say how long ago a key was used and when it expires, with the exact time in the reader’s zone on hover', async () => {
    await db().apiKey.updateMany({
      where: { workspaceId: fx.workspace.id, name: 'CI deploy bot' },
      data: { lastUsedAt: new Date(Date.now() - 3 * 60_000), expiresAt: new Date(Date.now() + 30 * 86_400_000) },
    });
    const { page } = await openAt(1280, 800);
    await page.goto(`${app.baseUrl}/settings/api-keys?workspace=${fx.workspace.slug}`);
    const row = page.getByRole('row', { name: /CI deploy bot/ });
    const lastUsed = row.locator('td[data-label="Last used"] time');
    await expect.poll(() => lastUsed.textContent()).toBe('3 minutes ago');
    expect(await row.locator('td[data-label="Expires"] time').textContent()).toBe('in 30 days');
    expect(await row.locator('td[data-label="Created"] time').textContent()).toBe('12 days ago');

    const iso = (await lastUsed.getAttribute('datetime'))!;
    const clock = { timeZone: 'Asia/Kolkata', hour: 'numeric', minute: '2-digit', second: '2-digit', hour12: true } as const;
    const inKolkata = new Intl.DateTimeFormat('en-US', clock).format(new Date(iso)).match(/\d+:\d\d:\d\d/)![0];
    expect(await lastUsed.getAttribute('title')).toContain(inKolkata);
    await page.close();
  });

  it('are the exact UTC time in the HTML the server sends, which the browser hydrates as it is', async () => {
    const html = await (
      await fetch(`${app.baseUrl}/settings/api-keys?workspace=${fx.workspace.slug}`, { headers: { cookie: await cookie() } })
    ).text();
    const rendered = [...html.matchAll(/<time [^>]*>([^<]*)<\/time>/g)].map(([, text]) => text);
    expect(rendered.length).toBeGreaterThan(0);
    for (const text of rendered) expect(text).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d UTC$/);
  });
});

async function cookie() {
  const cookies = await browser.context.cookies(app.baseUrl);
  return cookies.map(({ name, value }) => `${name}=${value}`).join('; ');
}

describe.each(WIDTHS)('forms at $width px', ({ width, height }) => {
  it('give the webhook URL the whole width of its form, and keep the project picker off the button’s line', async () => {
    const { page } = await openAt(width, height);
    await page.goto(`${app.baseUrl}/settings/webhooks?workspace=${fx.workspace.slug}`);
    const form = page.getByRole('form', { name: 'Add an endpoint' });
    const url = (await form.getByLabel('URL').boundingBox())!;
    const formBox = (await form.boundingBox())!;
    expect(url.width).toBeGreaterThanOrEqual(formBox.width - 1);
    expect(url.width).toBeGreaterThanOrEqual(Math.min(600, width - 100));

    const select = (await form.getByLabel('Project').boundingBox())!;
    const button = (await form.getByRole('button', { name: 'Add endpoint' }).boundingBox())!;
    expect(button.y).toBeGreaterThanOrEqual(select.y + select.height + 8);
    await page.close();
  });

  it('keep a space between the workspace picker and its button, and switch workspace with them', async () => {
    const { page } = await openAt(width, height);
    await page.goto(`${app.baseUrl}/settings/api-keys?workspace=${fx.workspace.slug}`);
    const switcher = page.getByRole('form', { name: 'Switch workspace' });
    const select = (await switcher.getByLabel('Workspace').boundingBox())!;
    const button = (await switcher.getByRole('button', { name: 'Switch' }).boundingBox())!;
    const sideBySide = button.y < select.y + select.height;
    if (sideBySide) expect(button.x).toBeGreaterThanOrEqual(select.x + select.width + 6);
    else expect(button.y).toBeGreaterThanOrEqual(select.y + select.height + 6);
    expect(button.x + button.width).toBeLessThanOrEqual(width);

    await switcher.getByLabel('Workspace').selectOption({ label: 'Empty Co' });
    await switcher.getByRole('button', { name: 'Switch' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('API keys · Empty Co');
    await page.close();
  });
});

describe('a workspace with nothing in it yet', () => {
  it('says there are no keys and how to create one', async () => {
    const { page } = await openAt(390, 844);
    await page.goto(`${app.baseUrl}/settings/api-keys?workspace=${emptySlug}`);
    const empty = page.getByRole('region', { name: 'Keys' }).getByTestId('empty-state');
    await expect
      .poll(() => empty.textContent())
      .toBe('No API keys yetCreate one below to let a script, an agent or a service use this workspace.');
    expect(await page.getByRole('table').count()).toBe(0);
    await page.close();
  });

  it('says there are no endpoints, and no deliveries for an endpoint that has had none', async () => {
    const { page } = await openAt(390, 844);
    await page.goto(`${app.baseUrl}/settings/webhooks?workspace=${emptySlug}`);
    const endpoints = page.getByRole('region', { name: 'Endpoints' });
    await expect.poll(() => endpoints.getByTestId('empty-state').textContent()).toContain('No endpoints yet');

    const empty = await db().workspace.findUniqueOrThrow({ where: { slug: emptySlug } });
    await createEndpoint(db(), empty.id, { url: WEBHOOK_URL, events: [], projectId: null }, FIXTURE_AUDIT);
    await page.reload();
    const endpoint = page.getByRole('article', { name: WEBHOOK_URL });
    await endpoint.getByRole('button', { name: 'Show deliveries' }).click();
    await expect.poll(() => endpoint.getByTestId('empty-state').textContent()).toContain('No deliveries yet');
    expect(await endpoint.getByRole('table').count()).toBe(0);
    await page.close();
  });
});
