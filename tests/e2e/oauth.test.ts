import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { auth, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspaceFixture, type WorkspaceFixture } from '../support/fixtures';
import { INITIALIZE, postMcp } from '../support/mcp';
import { createPerson } from '../support/settings';
import { ensureBuild } from '../support/build';
import { startAppServer, type AppServer } from './app-server';
import { launchBrowser, signInThroughPage, type Browser } from './browser';

// The app's loopback redirect; nothing listens there: the browser's request is caught.
const REDIRECT_URL = 'http://127.0.0.1:48213/callback';

/** An MCP client's OAuth state, kept in memory as a desktop client keeps it on disk. */
class MemoryProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;

  get redirectUrl() {
    return REDIRECT_URL;
  }
  get clientMetadata() {
    return {
      client_name: 'Agent Desk',
      redirect_uris: [REDIRECT_URL],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      scope: 'task:read task:create task:update offline_access',
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(client: OAuthClientInformationMixed) {
    this.client = client;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

let app: AppServer;
let browser: Browser;
let fixture: WorkspaceFixture;

beforeAll(async () => {
  await ensureBuild();
  fixture = await createWorkspaceFixture();
  app = await startAppServer(process.env.DATABASE_URL!);
  browser = await launchBrowser(app.baseUrl);
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('an MCP client connecting with OAuth (the official SDK, against npm start)', () => {
  it('discovers, registers, is approved in the browser, gets tokens, lists and calls tools, refreshes, and is revoked', async () => {
    const admin = await createPerson(fixture.workspace.id, 'admin');
    const page = await browser.context.newPage();
    await signInThroughPage(page, app.baseUrl, admin);
    const provider = new MemoryProvider();
    const serverUrl = `${app.baseUrl}/v1/mcp`;

    // Discovery (401 → protected resource → authorization server), registration, authorization URL.
    expect(await auth(provider, { serverUrl })).toBe('REDIRECT');
    expect(provider.client?.client_id).toBeTruthy();

    // The person approves in the browser, without task:update.
    let redirected = '';
    await page.route(`${REDIRECT_URL}**`, async (route) => {
      redirected = route.request().url();
      await route.fulfill({ status: 200, body: 'You can close this window.' });
    });
    const consent = await page.goto(provider.authorizationUrl!.toString());
    // The consent page may not be framed by another site (clickjacking of Approve).
    expect(consent?.headers()['x-frame-options']).toBe('DENY');
    expect(consent?.headers()['content-security-policy']).toBe("frame-ancestors 'none'");
    await page.waitForURL(/\/oauth\/consent\?/);
    await expect(page.getByRole('heading', { name: 'Connect Agent Desk' }).isVisible()).resolves.toBe(true);
    await page.getByLabel(/Change and delete tasks/).uncheck();
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL(`${REDIRECT_URL}**`);
    const code = new URL(redirected).searchParams.get('code')!;
    expect(new URL(redirected).searchParams.get('iss')).toBe(`${app.baseUrl}/api/auth`);

    expect(await auth(provider, { serverUrl, authorizationCode: code })).toBe('AUTHORIZED');
    const first = provider.saved!;
    expect(first.access_token).toMatch(/^tka_/);
    expect(first.refresh_token).toMatch(/^tkr_/);

    const client = new Client({ name: 'agent-desk', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(serverUrl), { authProvider: provider }));
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('create_task');
    expect(names).toContain('list_tasks');
    expect(names).not.toContain('update_task');
    const created = await client.callTool({ name: 'create_task', arguments: { projectSlug: 'web', title: 'Filed by an agent' } });
    expect(created.isError).toBeFalsy();
    await client.close();

    // Refresh: a new pair; the new access token works.
    provider.saved = { ...first, access_token: 'tka_expired00000000000000000000000' };
    expect(await auth(provider, { serverUrl })).toBe('AUTHORIZED');
    expect(provider.saved.access_token).not.toBe(first.access_token);
    expect(provider.saved.refresh_token).not.toBe(first.refresh_token);
    const refreshed = provider.saved.access_token;
    expect((await postMcp(app.baseUrl, INITIALIZE, { authorization: `Bearer ${refreshed}` })).status).toBe(200);

    // Revoked by an admin on the connected apps page: the next request answers 401, on MCP and on REST.
    await page.goto(`${app.baseUrl}/settings/apps?workspace=${fixture.workspace.slug}`);
    const row = page.getByRole('row', { name: /Agent Desk/ });
    await expect(row.getByRole('cell', { name: admin.name }).isVisible()).resolves.toBe(true);
    await expect(row.getByRole('cell', { name: 'task:read, task:create' }).isVisible()).resolves.toBe(true);
    await row.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await row.getByText('revoked').waitFor();

    expect((await postMcp(app.baseUrl, INITIALIZE, { authorization: `Bearer ${refreshed}` })).status).toBe(401);
    const rest = await fetch(`${app.baseUrl}/v1/public/web/tasks`, { headers: { authorization: `Bearer ${refreshed}` } });
    expect(rest.status).toBe(401);
  });
});
