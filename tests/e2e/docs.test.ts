import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspaceFixture, type WorkspaceFixture } from '../support/fixtures';
import { launchBrowser, type Browser } from './browser';
import { ensureBuild } from '../support/build';
import { startAppServer, type AppServer } from './app-server';
import { OPERATIONS } from '../support/operations';

// Committed for the guide (docs/api.md); rewritten only on request, so test runs leave the tree clean.
const screenshots = path.join(import.meta.dirname, 'screenshots');
const WIDTHS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
];
const SUMMARIES = [
  'List statuses',
  'List tasks',
  'List deleted tasks',
  'Create a task',
  'Update a task',
  'Delete a task',
  'Add a comment',
  'Upload an attachment',
  'Start a direct upload',
  'Complete a direct upload',
];

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

/** /docs at a width, with every request the page makes recorded. */
async function openDocs(width: number, height: number): Promise<{ page: Page; requests: string[] }> {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width, height });
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  await page.goto(`${app.baseUrl}/docs`);
  await page.waitForFunction(() => document.body.innerText.includes('/{projectSlug}/statuses'));
  return { page, requests };
}

async function saveScreenshot(page: Page, name: string) {
  const file = path.join(screenshots, name);
  if (process.env.UPDATE_SCREENSHOTS === '1' || !(await fs.stat(file).catch(() => null))) await page.screenshot({ path: file });
}

describe('the API reference (/docs) in a browser', () => {
  it.each(WIDTHS)('renders at $width px ($name) without horizontal overflow, every operation listed', async ({ name, width, height }) => {
    const { page, requests } = await openDocs(width, height);
    await page.waitForLoadState('networkidle');

    const text = (await page.evaluate(() => document.body.innerText)).replace(/\s+/g, ' ');
    for (const operation of OPERATIONS) expect(text).toContain(`${operation} `);
    // The phone layout keeps the navigation, with the operations' names, behind its menu button.
    if (width > 1000) for (const summary of SUMMARIES) expect(text).toContain(summary);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

    const outside = requests.filter((url) => !url.startsWith(`${app.baseUrl}/`) && !url.startsWith('data:'));
    expect(outside).toEqual([]);
    expect(requests).toContain(`${app.baseUrl}/v1/public/openapi.json`);
    if (width > 1000) {
      // The guide shows an operation with its example, not the introduction.
      await page.getByText('Create a task', { exact: true }).first().click();
      await page.waitForTimeout(1000);
    }
    await saveScreenshot(page, `docs-${name}.png`);
    await page.close();
  });

  it('shows the Idempotency-Key header of a write, with its 409 and 422 answers', async () => {
    const { page } = await openDocs(1280, 800);
    await page.getByText('Create a task', { exact: true }).first().click();
    const text = () => page.evaluate(() => document.body.innerText);
    await expect.poll(text).toContain('Idempotency-Key was already used for a different request');
    const shown = await text();
    expect(shown).toMatch(/Headers\s+Idempotency-Key/);
    expect(shown).toContain('Idempotency-Key: a request with this key is still being processed');
    await page.close();
  });

  it('shows a curl example for an operation, and JavaScript and Python among the clients', async () => {
    const { page } = await openDocs(1280, 800);
    // Scalar renders an operation once it is scrolled to, as a reader gets there from the sidebar.
    await page
      .getByRole('link', { name: 'List statuses' })
      .or(page.getByText('List statuses', { exact: true }))
      .first()
      .click();
    const example = page.locator('.scalar-code-block', { hasText: '/v1/public/web/statuses' }).first();
    await expect.poll(() => example.textContent()).toContain(`curl ${app.baseUrl}/v1/public/web/statuses`);

    for (const [language, client, call] of [
      ['JavaScript', 'Fetch', "fetch('"],
      ['Python', 'Requests', 'requests.get('],
    ] as const) {
      await page
        .getByRole('button', { name: /^Shell Curl|^JavaScript Fetch|^Python Requests/ })
        .first()
        .click();
      await page
        .getByRole('option', { name: `${language} ${client}` })
        // Within the open list only: the sidebar has a tag named Requests too.
        .or(page.getByRole('listbox').getByText(client, { exact: true }))
        .first()
        .click();
      await expect.poll(() => example.textContent(), { message: language }).toContain(call);
      expect(await example.textContent()).toContain(`${app.baseUrl}/v1/public/web/statuses`);
    }
    await page.close();
  });

  it('sends a request from try-it to this server with a key', async () => {
    const key = await fx.key({ scopes: ['task:read'] });
    const { page } = await openDocs(1280, 800);
    await page
      .getByRole('link', { name: 'List statuses' })
      .or(page.getByText('List statuses', { exact: true }))
      .first()
      .click();
    await page
      .getByRole('button', { name: /Test Request/ })
      .first()
      .click();
    await page.getByLabel('Bearer Token').fill(key);
    const answered = page.waitForResponse(`${app.baseUrl}/v1/public/web/statuses`);
    await page.getByRole('button', { name: /^Send get request to/ }).click();

    const response = await answered;
    expect(response.status()).toBe(200);
    expect(response.request().headers().authorization).toBe(`Bearer ${key}`);
    // The answer is shown in the client's response panel.
    await expect.poll(() => page.evaluate(() => document.body.innerText)).toContain('"name": "In Review"');
    await page.close();
  });
});
