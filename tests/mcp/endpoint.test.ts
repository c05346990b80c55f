import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleKeyUsage } from '../../server/auth/last-used';
import { db } from '../../server/db/client';
import { hashKey } from '../../server/keys/key-format';
import { revokeApiKey } from '../../server/keys/manage';
import { SCOPES } from '../../server/keys/scopes';
import { useApi } from '../support/api';
import { appOrigin } from '../support/settings';
import { callTool, INITIALIZE, mcpClient, postMcp } from '../support/mcp';
import { PROJECT_OPERATIONS } from '../support/operations';
import { FIXTURE_AUDIT } from '../support/fixtures';

const api = useApi();

afterAll(() => settleKeyUsage());

const INVALID_KEY = { statusCode: 401, message: 'Invalid API key' };

/** A client address unique per call, as the proxy in front (the test server trusts one) reports it. */
const uniqueAddress = () => `2001:db8::${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`;
const keyIdOf = async (secret: string) =>
  (await db().apiKey.findUniqueOrThrow({ where: { keyHash: hashKey(secret) }, select: { id: true } })).id;

let revoked: string;
let expired: string;

beforeAll(async () => {
  revoked = await api.fixture.key();
  await revokeApiKey(db(), api.fixture.workspace.id, await keyIdOf(revoked), FIXTURE_AUDIT);
  expired = await api.fixture.key({ expiresAt: new Date(Date.now() + 3_600_000) });
  await db().apiKey.update({ where: { keyHash: hashKey(expired) }, data: { expiresAt: new Date(Date.now() - 60_000) } });
});

describe('authentication', () => {
  it.each([
    ['no key', () => ({})],
    ['a malformed key', () => ({ authorization: 'Bearer tk_nope' })],
    ['a well-formed unknown key', () => ({ authorization: 'Bearer tk_3f9a1c0d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39' })],
    ['a revoked key', () => ({ authorization: `Bearer ${revoked}` })],
    ['an expired key', () => ({ authorization: `Bearer ${expired}` })],
  ])('answers %s with 401 and a WWW-Authenticate challenge naming the protected resource metadata', async (_case, headers) => {
    const response = await postMcp(api.server.baseUrl, INITIALIZE, { ...headers(), 'x-forwarded-for': uniqueAddress() });

    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${appOrigin()}/.well-known/oauth-protected-resource/v1/mcp"`,
    );
    expect(response.headers.get('x-request-id')).toBeTruthy();
    expect(await response.json()).toEqual(INVALID_KEY);
  });

  it('refuses the official client with a revoked key when it connects', async () => {
    await expect(mcpClient(api.server.baseUrl, revoked, { 'x-forwarded-for': uniqueAddress() })).rejects.toThrow(/401/);
  });

  it('refuses the next message once the key is revoked mid-conversation', async () => {
    const key = await api.fixture.key();
    const client = await mcpClient(api.server.baseUrl, key);
    expect((await callTool(client, 'list_statuses', { projectSlug: 'web' })).isError).toBeFalsy();

    await revokeApiKey(db(), api.fixture.workspace.id, await keyIdOf(key), FIXTURE_AUDIT);

    await expect(client.callTool({ name: 'list_statuses', arguments: { projectSlug: 'web' } })).rejects.toThrow(/401/);
    await client.close();
  });

  it('checks the key before it reads a byte of the body', async () => {
    // Announces 64 MiB and sends 1 KiB of it: only an answer given before reading can arrive.
    const url = new URL(`${api.server.baseUrl}/v1/mcp`);
    const status = await new Promise<number>((resolve, reject) => {
      const request = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'content-length': String(64 * 1024 * 1024),
            authorization: 'Bearer tk_nope',
            'x-forwarded-for': uniqueAddress(),
          },
        },
        (response) => {
          resolve(response.statusCode ?? 0);
          request.destroy();
        },
      );
      request.on('error', reject);
      request.write('x'.repeat(1024));
    });
    expect(status).toBe(401);
  });

  it('limits bad keys per client address, as the REST API does: past 30 a minute, 429 with Retry-After', async () => {
    const address = uniqueAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const response = await postMcp(api.server.baseUrl, INITIALIZE, { authorization: 'Bearer tk_nope', 'x-forwarded-for': address });
      statuses.push(response.status);
      if (response.status === 429) {
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(await response.json()).toEqual({ statusCode: 429, message: 'Too many requests' });
      }
    }
    expect(statuses.slice(0, 30).every((status) => status === 401)).toBe(true);
    expect(statuses[30]).toBe(429);
    // A valid key from the same address is still served.
    const client = await mcpClient(api.server.baseUrl, await api.fixture.key({ scopes: [...SCOPES] }), { 'x-forwarded-for': address });
    expect((await client.listTools()).tools).toHaveLength(PROJECT_OPERATIONS.length);
    await client.close();
  });
});

describe('the Streamable HTTP endpoint', () => {
  const bearer = () => ({ authorization: `Bearer ${api.key}` });

  it('answers an initialize POST with JSON, without a session', async () => {
    const response = await postMcp(api.server.baseUrl, INITIALIZE, bearer());

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(response.headers.get('mcp-session-id')).toBeNull();
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = await response.json();
    expect(body).toMatchObject({ jsonrpc: '2.0', id: 1, result: { serverInfo: { name: 'task-api' }, capabilities: { tools: {} } } });
  });

  it('offers no stream: GET and DELETE answer 405 with Allow', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${api.server.baseUrl}/v1/mcp`, { method, headers: { ...bearer(), accept: 'text/event-stream' } });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST, OPTIONS');
    }
  });

  it('answers a browser preflight with the headers MCP clients send', async () => {
    const response = await fetch(`${api.server.baseUrl}/v1/mcp`, { method: 'OPTIONS' });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-headers')).toContain('Mcp-Protocol-Version');
  });

  it('answers a body that is not JSON with 400', async () => {
    const response = await postMcp(api.server.baseUrl, '{"jsonrpc":', bearer());
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ statusCode: 400, message: 'Request body is not valid JSON' });
  });

  it('refuses a body of too many JSON values before parsing it', async () => {
    const response = await postMcp(api.server.baseUrl, `[${'{},'.repeat(20_000)}{}]`, bearer());
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ statusCode: 400, message: 'Request body holds more than 10000 JSON values' });
  });

  it('refuses a body over the largest upload as base64 with 413, saying why', async () => {
    const call = JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'upload_attachment', arguments: { content: 'A'.repeat(14_100_000) } },
    });
    const response = await postMcp(api.server.baseUrl, call, bearer());
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      statusCode: 413,
      message: 'Request body too large: the limit is 14046552 bytes, room for one upload_attachment of 10485760 bytes (10 MB) as base64',
    });
  });

  it('answers a client that cannot take JSON with 406, as the transport specifies', async () => {
    const response = await postMcp(api.server.baseUrl, INITIALIZE, { ...bearer(), accept: 'text/html' });
    expect(response.status).toBe(406);
  });

  it('is reached at /v1/mcp however the path is spelled', async () => {
    const response = await fetch(`${api.server.baseUrl}/v1/./%6Dcp`, {
      method: 'POST',
      headers: { ...bearer(), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: INITIALIZE,
    });
    expect(response.status).toBe(200);
  });
});
