import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleKeyUsage } from '../../server/auth/last-used';
import { db } from '../../server/db/client';
import { REGISTRATIONS_PER_MINUTE } from '../../server/oauth/provider';
import { useApi } from '../support/api';
import { appOrigin } from '../support/settings';
import { INITIALIZE, postMcp } from '../support/mcp';
import { approve, authorize, connectApp, mcpResource, personSignedIn, pkce, REDIRECT_URI, registerClient, token } from '../support/oauth';

/** What a careless or hostile client tries against the authorization server. */
const api = useApi();
let admin: Awaited<ReturnType<typeof personSignedIn>>;
let clientId: string;

beforeAll(async () => {
  admin = await personSignedIn(api.server.baseUrl, api.fixture.workspace.id, 'admin');
  clientId = (await registerClient(api.server.baseUrl)).body.client_id;
});
afterAll(() => settleKeyUsage());

const mcpStatus = async (accessToken: string) =>
  (await postMcp(api.server.baseUrl, INITIALIZE, { authorization: `Bearer ${accessToken}` })).status;

describe('PKCE', () => {
  it.each([
    ['without a code challenge', { challenge: null }],
    ['with the plain method', { method: 'plain' }],
  ])('an authorization %s is refused: the app gets an error, never a code', async (_, options) => {
    const asked = await authorize(api.server.baseUrl, { clientId, cookie: admin.cookie, ...options });
    const location = new URL(asked.location!, api.server.baseUrl);

    expect(asked.status).toBe(302);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('code')).toBeNull();
  });
});

describe('redirect URIs', () => {
  it('an authorization naming a redirect URI the app did not register is refused without redirecting there', async () => {
    const asked = await authorize(api.server.baseUrl, { clientId, cookie: admin.cookie, redirectUri: 'https://evil.example/steal' });

    const location = new URL(asked.location!, api.server.baseUrl);

    expect(asked.location).not.toContain('evil.example');
    expect(`${location.origin}${location.pathname}`).toBe(`${appOrigin()}/oauth/error`);
    expect(location.searchParams.get('error')).toBe('invalid_redirect');
  });

  it('the consent page refuses to approve an authorization whose redirect URI was changed after the library signed it', async () => {
    const asked = await authorize(api.server.baseUrl, { clientId, cookie: admin.cookie });
    const tampered = asked.location!.replace(encodeURIComponent(REDIRECT_URI), encodeURIComponent('http://127.0.0.1:1/other'));
    const approved = await approve(api.server.baseUrl, admin.cookie, tampered, {
      workspace: api.fixture.workspace.slug,
      scopes: ['task:read'],
    });

    expect(approved.status).toBe(400);
  });
});

describe('codes', () => {
  it('a code works once; replayed, it is refused and the tokens it issued stop working', async () => {
    const connected = await connectApp(api.server.baseUrl, admin.cookie, { workspace: api.fixture.workspace.slug, scopes: ['task:read'] });
    expect(await mcpStatus(connected.tokens.access_token)).toBe(200);

    const replayed = await token(api.server.baseUrl, {
      grant_type: 'authorization_code',
      code: connected.code,
      redirect_uri: REDIRECT_URI,
      client_id: connected.clientId,
      code_verifier: connected.verifier,
      resource: mcpResource(),
    });

    expect(replayed.status).toBe(400);
    expect(replayed.body.error).toBe('invalid_grant');
    expect(await mcpStatus(connected.tokens.access_token)).toBe(401);
  });

  it('a code exchanged with the wrong verifier is refused', async () => {
    const client = await registerClient(api.server.baseUrl);
    const { challenge } = pkce();
    const asked = await authorize(api.server.baseUrl, { clientId: client.body.client_id, cookie: admin.cookie, challenge });
    const approved = await approve(api.server.baseUrl, admin.cookie, asked.location!, {
      workspace: api.fixture.workspace.slug,
      scopes: ['task:read'],
    });
    const exchanged = await token(api.server.baseUrl, {
      grant_type: 'authorization_code',
      code: new URL(approved.data.redirectTo).searchParams.get('code')!,
      redirect_uri: REDIRECT_URI,
      client_id: client.body.client_id,
      code_verifier: pkce().verifier,
    });

    expect(exchanged.status).toBeGreaterThanOrEqual(400);
    expect(exchanged.body.access_token).toBeUndefined();
  });
});

describe('access tokens', () => {
  it('a token issued for the REST API is refused by the MCP server', async () => {
    const connected = await connectApp(
      api.server.baseUrl,
      admin.cookie,
      { workspace: api.fixture.workspace.slug, scopes: ['task:read'] },
      { resource: `${new URL(mcpResource()).origin}/v1/public` },
    );

    expect(await mcpStatus(connected.tokens.access_token)).toBe(401);
  });

  it('an expired token answers 401', async () => {
    const connected = await connectApp(api.server.baseUrl, admin.cookie, { workspace: api.fixture.workspace.slug, scopes: ['task:read'] });
    await db().oauthAccessToken.updateMany({ where: { clientId: connected.clientId }, data: { expiresAt: new Date(Date.now() - 1000) } });

    expect(await mcpStatus(connected.tokens.access_token)).toBe(401);
  });

  it('a made-up token with the prefix answers 401', async () => {
    expect(await mcpStatus(`tka_${'A'.repeat(32)}`)).toBe(401);
  });
});

describe('consent', () => {
  it('a member who is neither owner nor admin cannot approve: told to ask one, and no code is issued', async () => {
    const member = await personSignedIn(api.server.baseUrl, api.fixture.workspace.id, 'member');
    const asked = await authorize(api.server.baseUrl, { clientId, cookie: member.cookie });
    const approved = await approve(api.server.baseUrl, member.cookie, asked.location!, {
      workspace: api.fixture.workspace.slug,
      scopes: ['task:read'],
    });

    expect(approved.status).toBe(403);
    expect(approved.error.message).toBe('Only owners and admins of this workspace manage its connected apps');
    expect(await db().oauthGrant.count({ where: { approvedById: member.id } })).toBe(0);
  });

  it('a scope the app did not ask for cannot be granted', async () => {
    const asked = await authorize(api.server.baseUrl, { clientId, cookie: admin.cookie, scope: 'task:read' });
    const approved = await approve(api.server.baseUrl, admin.cookie, asked.location!, {
      workspace: api.fixture.workspace.slug,
      scopes: ['task:read', 'task:update'],
    });

    expect(approved.status).toBe(400);
    expect(approved.error.message).toBe('scopes: task:update was not asked for');
  });
});

describe('registration', () => {
  it(`is limited to ${REGISTRATIONS_PER_MINUTE} a minute per client address; other addresses still register`, async () => {
    // Addresses in different /64s: better-auth counts an IPv6 client by its /64.
    const address = `2001:db8:${randomBytes(2).toString('hex')}::1`;
    const statuses: number[] = [];
    for (let i = 0; i <= REGISTRATIONS_PER_MINUTE; i++) {
      statuses.push((await registerClient(api.server.baseUrl, {}, { 'x-forwarded-for': address })).status);
    }
    const elsewhere = await registerClient(api.server.baseUrl, {}, { 'x-forwarded-for': `2001:db8:${randomBytes(2).toString('hex')}::1` });

    expect(statuses.slice(0, REGISTRATIONS_PER_MINUTE).every((status) => status === 201)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    expect(elsewhere.status).toBe(201);
  });
});
