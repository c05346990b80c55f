import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../support/client';
import { createWorkspaceFixture, type WorkspaceFixture } from '../support/fixtures';
import { awayFromWindowEdge } from '../support/limit-window';
import { createPerson, signIn, signOut } from '../support/settings';
import { badKeyRequest, loopbackAddress, requestFrom, statusesOf } from '../support/loopback-client';
import { ensureBuild } from '../support/build';
import { startAppServer, type AppServer } from './app-server';

// Served as a Vercel preview is: pages are also opened at the branch alias.
const BRANCH_HOST = 'task-api-git-fix-team.vercel.app';

let app: AppServer;
let fx: WorkspaceFixture;
let key: string;

beforeAll(async () => {
  await ensureBuild();
  fx = await createWorkspaceFixture();
  key = await fx.key();
  app = await startAppServer(process.env.DATABASE_URL!, { VERCEL_BRANCH_URL: BRANCH_HOST });
  const client = apiClient(app.baseUrl, key);
  for (let i = 1; i <= 5; i++)
    expect((await client.post('/web/tasks', { title: `Task ${i}`, description: 'x'.repeat(300) })).status).toBe(201);
});

afterAll(async () => {
  await app?.stop();
});

/** A raw GET, so the test sees the bytes and headers as sent, not as fetch decodes them. */
function rawGet(
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(`${app.baseUrl}${path}`, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

describe('the production server (npm start)', () => {
  it('answers the public API with its headers and the spec error shape', async () => {
    const client = apiClient(app.baseUrl, key);

    const list = await client.get('/web/tasks');
    const missing = await client.get('/web/tasks/WEB-999');
    // From an address of its own: other test files' bad keys from 127.0.0.1 count in the shared limiter too.
    const noKey = await requestFrom(loopbackAddress(), `${app.baseUrl}/v1/public/web/tasks`);

    expect(list.status).toBe(200);
    expect(list.body.meta.total).toBe(5);
    expect(list.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(list.headers.get('x-ratelimit-limit')).toBe('10000');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ statusCode: 404, message: 'Task not found' });
    expect(JSON.parse(noKey.body)).toEqual({ statusCode: 401, message: 'Invalid API key' });
  });

  it('serves the pages and the OpenAPI document through Next.js on the same port', async () => {
    const docs = await fetch(`${app.baseUrl}/docs`);
    const openapi = await fetch(`${app.baseUrl}/v1/public/openapi.json`);

    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-type')).toContain('text/html');
    expect(openapi.status).toBe(200);
    expect((await openapi.json()).openapi).toMatch(/^3\.1/);
  });

  it('gzips a JSON answer of 1 KiB or more when the client accepts gzip', async () => {
    const response = await rawGet('/v1/public/web/tasks', { authorization: `Bearer ${key}`, 'accept-encoding': 'br;q=1, gzip;q=0.8' });

    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers.vary).toContain('Accept-Encoding');
    expect(Number(response.headers['content-length'])).toBe(response.body.length);
    expect(JSON.parse(gunzipSync(response.body).toString()).tasks).toHaveLength(5);
  });

  it('sends JSON as it is, with its length, to a client that refuses gzip', async () => {
    const response = await rawGet('/v1/public/web/tasks', { authorization: `Bearer ${key}`, 'accept-encoding': 'gzip;q=0, identity' });

    expect(response.headers['content-encoding']).toBeUndefined();
    expect(Number(response.headers['content-length'])).toBe(response.body.length);
    expect(JSON.parse(response.body.toString()).tasks).toHaveLength(5);
  });

  it('limits bad keys by the socket address: an X-Forwarded-For written by the client is not believed', async () => {
    await awayFromWindowEdge();
    const socket = loopbackAddress();

    const seen = await statusesOf(31, (i) => badKeyRequest(app.baseUrl, socket, `203.0.113.${i + 1}`));

    expect(seen).toEqual([...Array(30).fill(401), 429]);
  });

  it("signs in and out on a preview's branch alias, better-auth's own origin check included", async () => {
    const person = await createPerson(fx.workspace.id, 'admin');
    const origin = `https://${BRANCH_HOST}`;

    const { status, cookie } = await signIn(app.baseUrl, person.email, person.password, origin);
    const signedOut = await signOut(app.baseUrl, cookie, origin);

    expect(status).toBe(200);
    expect(signedOut).toBe(200);
  });
});
