import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM, waitForChromium } from '../support/chromium.mjs';
import { PATIENCE_MS } from '../support/patience';

// Debian's Chromium, kept off the network: no updates, sync or background fetches.
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * A headless Chromium with a fresh profile, allowed to use the clipboard on the app's
 * origin; `timezoneId` and `locale` are the reader's (the machine's by default). On a
 * new machine it waits for the Chromium that `npm test` is installing meanwhile.
 */
export async function launchBrowser(origin: string, reader: { timezoneId?: string; locale?: string } = {}): Promise<Browser> {
  await waitForChromium();
  const profile = await fs.mkdtemp(path.join(os.tmpdir(), 'taskapi-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport: { width: 1100, height: 760 },
    ...reader,
  });
  // Every wait for a page, an element or a URL: Playwright's own default is 30 s.
  context.setDefaultTimeout(PATIENCE_MS);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  return {
    context,
    async close() {
      await context.close();
      await fs.rm(profile, { recursive: true, force: true });
    },
  };
}

/** Signs in on the sign-in page as a person would, from a page with no session; lands on the API keys page. */
export async function signInThroughPage(page: Page, baseUrl: string, person: { email: string; password: string }) {
  await page.context().clearCookies();
  await page.goto(`${baseUrl}/sign-in`);
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/settings\/api-keys$/);
}
