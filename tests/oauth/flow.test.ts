import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleKeyUsage } from '../../server/auth/last-used';
import { db } from '../../server/db/client';
import { revokeGrant } from '../../server/oauth/grants';
import { useApi } from '../support/api';
import { callTool, INITIALIZE, mcpClient, postMcp } from '../support/mcp';
import { connectApp, mcpResource, personSignedIn, registerClient, restResource, token } from '../support/oauth';
import { appOrigin } from '../support/settings';
import { FIXTURE_AUDIT } from '../support/fixtures';

const api = useApi();
let admin: Awaited<ReturnType<typeof personSignedIn>>;

beforeAll(async () => {
  admin = await personSignedIn(api.server.baseUrl, api.fixture.workspace.id, 'admin');
});
afterAll(() => settleKeyUsage());

const toolCall = (name: string, args: Record<string, unknown>) =>
  JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name, arguments: args } });

describe('discovery', () => {
  it('/v1/mcp without credentials answers 401 whose WWW-Authenticate names the protected resource metadata', async () => {
    const response = await postMcp(api.server.baseUrl, INITIALIZE);

    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${appOrigin()}/.well-known/oauth-protected-resource/v1/mcp"`,
    );
  });

  it('the protected resource metadata (RFC 9728) names the MCP server, this authorization server and the scopes', async () => {
    for (const path of ['/.well-known/oauth-protected-resource/v1/mcp', '/.well-known/oauth-protected-resource']) {
      const response = await fetch(api.server.baseUrl + path);

      expect(response.status, path).toBe(200);
      expect(await response.json()).toMatchObject({
        resource: mcpResource(),
        authorization_servers: [`${appOrigin()}/api/auth`],
        scopes_supported: ['task:read', 'task:create', 'task:update', 'requests:read', 'usage:read'],
      });
    }
  });

  it('the REST API has its own protected resource metadata, from the same authorization server, with the audit log scope too', async () => {
    const response = await fetch(`${api.server.baseUrl}/.well-known/oauth-protected-resource/v1/public`);

    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      resource: restResource(),
      authorization_servers: [`${appOrigin()}/api/auth`],
      scopes_supported: ['task:read', 'task:create', 'task:update', 'audit:read', 'requests:read', 'usage:read', 'webhook:manage'],
      bearer_methods_supported: ['header'],
    });
  });

  it('every endpoint the authorization server metadata names is served (none answers 404)', async () => {
    const metadata = (await (await fetch(`${api.server.baseUrl}/.well-known/oauth-authorization-server`)).json()) as Record<
      string,
      unknown
    >;
    const endpoints = Object.entries(metadata).filter(([name]) => name.endsWith('_endpoint'));

    expect(endpoints.map(([name]) => name).sort()).toEqual([
      'authorization_endpoint',
      'registration_endpoint',
      'revocation_endpoint',
      'token_endpoint',
    ]);
    expect(Object.keys(metadata).filter((name) => name.startsWith('introspection'))).toEqual([]);
    for (const [name, url] of endpoints) {
      const served = await fetch(String(url).replace(appOrigin(), api.server.baseUrl), { method: 'POST', body: '' });
      expect(served.status, name).not.toBe(404);
    }
  });

  it('the authorization server metadata (RFC 8414) is served at the root and at the issuer-path form, with PKCE S256 only', async () => {
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/oauth-authorization-server/api/auth']) {
      const response = await fetch(api.server.baseUrl + path);
      const metadata = (await response.json()) as Record<string, unknown>;

      expect(response.status, path).toBe(200);
      expect(metadata).toMatchObject({
        issuer: `${appOrigin()}/api/auth`,
        authorization_endpoint: `${appOrigin()}/api/auth/oauth2/authorize`,
        token_endpoint: `${appOrigin()}/api/auth/oauth2/token`,
        registration_endpoint: `${appOrigin()}/api/auth/oauth2/register`,
        code_challenge_methods_supported: ['S256'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
      });
    }
  });
});

describe('dynamic client registration', () => {
  it.each(['http://127.0.0.1:53682/callback', 'http://localhost:8976/oauth/callback'])(
    'registers a public client redirecting to the loopback address %s, on any port',
    async (redirectUri) => {
      const registered = await registerClient(api.server.baseUrl, { redirect_uris: [redirectUri] });

      expect(registered.status).toBe(201);
      expect(registered.body).toMatchObject({ redirect_uris: [redirectUri], token_endpoint_auth_method: 'none' });
    },
  );

  it('refuses a plain-http redirect to any other host', async () => {
    const registered = await registerClient(api.server.baseUrl, { redirect_uris: ['http://app.example.com/callback'] });

    expect(registered.status).toBe(400);
    expect(registered.body.error).toBe('invalid_redirect_uri');
  });
});

describe('a grant', () => {
  it('lists the tools of the scopes approved, not of those asked for', async () => {
    const connected = await connectApp(api.server.baseUrl, admin.cookie, { workspace: api.fixture.workspace.slug, scopes: ['task:read'] });
    const client = await mcpClient(api.server.baseUrl, connected.tokens.access_token);
    const { tools } = await client.listTools();

    expect(connected.tokens.access_token).toMatch(/^tka_/);
    expect(connected.tokens.refresh_token).toMatch(/^tkr_/);
    expect(connected.tokens.scope.split(' ').sort()).toEqual(['offline_access', 'task:read']);
    expect(tools.map((tool) => tool.name)).toContain('list_tasks');
    expect(tools.map((tool) => tool.name)).not.toContain('create_task');
  });

  it('a tool call the grant lacks the scope for answers HTTP 403 insufficient_scope naming the scope (step-up)', async () => {
    const connected = await connectApp(api.server.baseUrl, admin.cookie, { workspace: api.fixture.workspace.slug, scopes: ['task:read'] });
    const response = await postMcp(api.server.baseUrl, toolCall('create_task', { projectSlug: 'web', title: 'x' }), {
      authorization: `Bearer ${connected.tokens.access_token}`,
    });

    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toMatch(
      /^Bearer error="insufficient_scope", scope="task:create", resource_metadata="/,
    );
  });

  it('on REST, a request the grant lacks the scope for answers 403 insufficient_scope naming the scope and the metadata', async () => {
    const connected = await connectApp(
      api.server.baseUrl,
      admin.cookie,
      { workspace: api.fixture.workspace.slug, scopes: ['task:read'] },
      { resource: restResource() },
    );
    const response = await api.clientWith(connected.tokens.access_token).post('/web/tasks', { title: 'x' });

    expect(response.status).toBe(403);
    expect(response.body).toEqual({ statusCode: 403, message: 'Missing required scope: task:create' });
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer error="insufficient_scope", scope="task:create", resource_metadata="${appOrigin()}/.well-known/oauth-protected-resource/v1/public", error_description="Missing required scope: task:create"`,
    );
  });

  it("a key's 403 for a scope it lacks carries no challenge: a key cannot be widened", async () => {
    const readOnly = await api.fixture.key({ scopes: ['task:read'] });
    const response = await api.clientWith(readOnly).post('/web/tasks', { title: 'x' });

    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toBeNull();
  });

  it('comments posted through it name the app as their author', async () => {
    const connected = await connectApp(api.server.baseUrl, admin.cookie, {
      workspace: api.fixture.workspace.slug,
      scopes: ['task:create', 'task:update'],
    });
    const client = await mcpClient(api.server.baseUrl, connected.tokens.access_token);
    const created = await callTool(client, 'create_task', { projectSlug: 'web', title: 'Through an app' });
    const comment = await callTool(client, 'add_comment', {
      projectSlug: 'web',
      taskId: (JSON.parse(created.text) as { id: string }).id,
      content: 'Done by the agent',
    });

    expect(JSON.parse(comment.text)).toMatchObject({ authorName: 'Agent Desk' });
  });

  it('a token for the REST API is accepted there; a token for the MCP server is not', async () => {
    const rest = await connectApp(
      api.server.baseUrl,
      admin.cookie,
      { workspace: api.fixture.workspace.slug, scopes: ['task:read'] },
      { resource: restResource() },
    );
    const mcp = await connectApp(api.server.baseUrl, admin.cookie, { workspace: api.fixture.workspace.slug, scopes: ['task:read'] });

    expect((await api.clientWith(rest.tokens.access_token).get('/web/statuses')).status).toBe(200);
    expect((await api.clientWith(mcp.tokens.access_token).get('/web/statuses')).status).toBe(401);
  });

  it('refresh rotates: a new refresh token comes with a new access token that works', async () => {
    const connected = await connectApp(api.server.baseUrl, admin.cookie, { workspace: api.fixture.workspace.slug, scopes: ['task:read'] });
    const refreshed = await token(api.server.baseUrl, {
      grant_type: 'refresh_token',
      refresh_token: connected.tokens.refresh_token!,
      client_id: connected.clientId,
      resource: mcpResource(),
    });

    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).not.toBe(connected.tokens.refresh_token);
    const client = await mcpClient(api.server.baseUrl, refreshed.body.access_token);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });

  it('revoked, every one of its tokens answers 401 at once, on MCP and REST', async () => {
    const connected = await connectApp(
      api.server.baseUrl,
      admin.cookie,
      { workspace: api.fixture.workspace.slug, scopes: ['task:read'] },
      { resource: restResource() },
    );
    const grant = await db().oauthAccessToken.findFirstOrThrow({ where: { clientId: connected.clientId }, select: { referenceId: true } });
    expect((await api.clientWith(connected.tokens.access_token).get('/web/statuses')).status).toBe(200);

    await revokeGrant(db(), api.fixture.workspace.id, grant.referenceId!, FIXTURE_AUDIT);

    expect((await api.clientWith(connected.tokens.access_token).get('/web/statuses')).status).toBe(401);
    const mcp = await postMcp(api.server.baseUrl, INITIALIZE, { authorization: `Bearer ${connected.tokens.access_token}` });
    expect(mcp.status).toBe(401);
    const refreshed = await token(api.server.baseUrl, {
      grant_type: 'refresh_token',
      refresh_token: connected.tokens.refresh_token!,
      client_id: connected.clientId,
    });
    expect(refreshed.status).toBe(400);
  });
});
