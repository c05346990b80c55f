import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../support/client';
import { createWorkspaceFixture, type WorkspaceFixture } from '../support/fixtures';
import { awayFromWindowEdge } from '../support/limit-window';
import { badKeyRequest, loopbackAddress, requestFrom, statusesOf } from '../support/loopback-client';
import { rawExchange, rawRequest, slowReaderRequest } from '../support/raw-http';
import { createPerson } from '../support/settings';
import { ensureBuild } from '../support/build';
import { startAppServer, type AppServer } from '../e2e/app-server';

// What a hostile or careless client sends to the server users run (`npm start`).
let app: AppServer;
let fx: WorkspaceFixture;
let key: string;
let host: string;

const BAD_KEY_LIMIT = 30;
const INVALID_KEY = { statusCode: 401, message: 'Invalid API key' };
const madeUpKey = () => `tk_${randomBytes(20).toString('hex')}`;

beforeAll(async () => {
  await ensureBuild();
  fx = await createWorkspaceFixture();
  key = await fx.key();
  app = await startAppServer(process.env.DATABASE_URL!);
  host = new URL(app.baseUrl).host;
});

afterAll(async () => {
  await app?.stop();
});

describe('the path, however it is spelled', () => {
  const spellings = [
    '/v1/./public/web/statuses',
    '//v1//public/web/statuses',
    '/v1/%70ublic/web/statuses',
    '/v1/public/x/../web/statuses',
    '/v1/public/web/%73tatuses',
  ];

  it.each(spellings)('%s reaches the public API with a valid key', async (path) => {
    const response = await fetch(`${app.baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });

    expect(response.status).toBe(200);
    expect(((await response.json()) as unknown[]).length).toBe(4);
  });

  it('counts bad keys by the socket address, whatever X-Forwarded-For and spelling a client sends', async () => {
    await awayFromWindowEdge();
    const socket = loopbackAddress();
    const seen = await statusesOf(BAD_KEY_LIMIT + 1, (i) =>
      rawRequest(
        app.baseUrl,
        `GET ${spellings[i % spellings.length]} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${madeUpKey()}\r\nX-Forwarded-For: 198.51.100.${i + 1}\r\nConnection: close\r\n\r\n`,
        '',
        socket,
      ).then((response) => response.status),
    );

    expect(seen).toEqual([...Array(BAD_KEY_LIMIT).fill(401), 429]);
  });
});

describe('the bad-key limit', () => {
  it('never refuses a valid key from an address over it', async () => {
    await awayFromWindowEdge();
    const socket = loopbackAddress();
    const bad = await statusesOf(BAD_KEY_LIMIT + 1, () => badKeyRequest(app.baseUrl, socket));

    const good = await rawRequest(
      app.baseUrl,
      `GET /v1/public/web/statuses HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`,
      '',
      socket,
    );

    expect(bad.at(-1)).toBe(429);
    expect(good.status).toBe(200);
  });
});

describe('sign-in guessing', () => {
  it('is limited by the socket address, whatever X-Forwarded-For says', async () => {
    const person = await createPerson(fx.workspace.id, 'admin');
    const socket = loopbackAddress();
    const statuses = await statusesOf(12, async (i) => {
      const body = JSON.stringify({ email: person.email, password: `wrong-${i}` });
      const response = await rawRequest(
        app.baseUrl,
        `POST /api/auth/sign-in/email HTTP/1.1\r\nHost: ${host}\r\nOrigin: ${app.baseUrl}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Forwarded-For: 203.0.113.${i + 1}\r\nConnection: close\r\n\r\n`,
        body,
        socket,
      );
      return response.status;
    });

    expect(statuses).toContain(429);
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
  });
});

describe('odd methods and targets', () => {
  it('HEAD without a key answers 401 without a body, as GET would', async () => {
    const response = await rawRequest(app.baseUrl, `HEAD /v1/public/web/tasks HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);

    expect(response.status).toBe(401);
    expect(response.body).toBe('');
  });

  it('HEAD with a key answers 200 with the headers of GET', async () => {
    const response = await rawRequest(
      app.baseUrl,
      `HEAD /v1/public/web/statuses HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`,
    );

    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toContain('application/json');
    expect(response.headers['x-ratelimit-limit']).toBeDefined();
  });

  it('a known path with another method answers 405 with Allow', async () => {
    const response = await fetch(`${app.baseUrl}/v1/public/web/tasks/WEB-1`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${key}` },
    });

    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, PATCH, DELETE, HEAD, OPTIONS');
    expect(await response.json()).toEqual({
      statusCode: 405,
      message: 'Method PUT is not allowed here; use GET, PATCH, DELETE, HEAD, OPTIONS',
    });
  });

  it('OPTIONS * answers 400 in the error shape', async () => {
    const response = await rawRequest(app.baseUrl, `OPTIONS * HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);

    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toEqual({ statusCode: 400, message: 'Request target must be a path starting with /' });
  });

  it.each(['/api/auth/%E0%A4%A', '/storage/%ZZ', '/api/internal/%ED%A0%80'])(
    'a path to Next.js whose escapes are not UTF-8 (%s) answers 400 in the error shape',
    async (path) => {
      const response = await rawRequest(app.baseUrl, `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);

      expect(response.status).toBe(400);
      expect(JSON.parse(response.body)).toEqual({ statusCode: 400, message: 'Request path is not percent-encoded UTF-8' });
    },
  );

  it('TRACE answers 405 in the error shape', async () => {
    const response = await rawRequest(app.baseUrl, `TRACE /v1/public/web/tasks HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);

    expect(response.status).toBe(405);
    expect(JSON.parse(response.body)).toEqual({ statusCode: 405, message: 'Method TRACE is not allowed' });
  });

  it('a URL over 8 KiB answers 414 in the error shape', async () => {
    const response = await fetch(`${app.baseUrl}/v1/public/web/tasks?search=${'a'.repeat(9000)}`, {
      headers: { authorization: `Bearer ${key}` },
    });

    expect(response.status).toBe(414);
    expect(await response.json()).toEqual({ statusCode: 414, message: 'Request target longer than 8192 characters' });
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a request head over 16 KiB answers 431 in the error shape', async () => {
    const response = await rawRequest(
      app.baseUrl,
      `GET /v1/public/web/tasks HTTP/1.1\r\nHost: ${host}\r\nX-Filler: ${'a'.repeat(20_000)}\r\nConnection: close\r\n\r\n`,
    );

    expect(response.status).toBe(431);
    expect(JSON.parse(response.body)).toEqual({ statusCode: 431, message: 'Request header fields too large' });
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a request Node cannot parse answers 400 in the error shape', async () => {
    const response = await rawRequest(app.baseUrl, `GET /v1/public/web/tasks HTTP/1.1\r\nHost: ${host}\r\nBad Header\r\n\r\n`);

    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toEqual({ statusCode: 400, message: 'Malformed request' });
  });
});

describe('early answers to a body', () => {
  const uploadOf = (bytes: number) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), 'big.bin');
    return form;
  };

  it.each([
    [12_000_000, 'keep-alive'],
    [30_000_000, 'keep-alive'],
    [12_000_000, 'close'],
    [30_000_000, 'close'],
  ])("an upload of %i bytes with Connection: %s gets its 413, read by Node's fetch", async (bytes, connection) => {
    const task = await apiClient(app.baseUrl, key).post('/web/tasks', { title: 'Upload target' });

    const response = await fetch(`${app.baseUrl}/v1/public/web/tasks/${task.body.id}/attachments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, connection },
      body: uploadOf(bytes),
    });

    expect(response.status).toBe(413);
    expect(((await response.json()) as { statusCode: number }).statusCode).toBe(413);
  });

  it("an upload without a key, with Connection: close, gets its 401, read by Node's fetch", async () => {
    const response = await fetch(`${app.baseUrl}/v1/public/web/tasks/WEB-1/attachments`, {
      method: 'POST',
      headers: { connection: 'close' },
      body: uploadOf(5_000_000),
    });

    expect(response.status).toBe(401);
    expect(await response.json()).toEqual(INVALID_KEY);
  });

  it("an upload without a key gets its 401, read by Node's fetch", async () => {
    const response = await fetch(`${app.baseUrl}/v1/public/web/tasks/WEB-1/attachments`, { method: 'POST', body: uploadOf(5_000_000) });

    expect(response.status).toBe(401);
    expect(await response.json()).toEqual(INVALID_KEY);
  });

  it("an upload to a task of another project gets its 404, read by Node's fetch", async () => {
    const response = await fetch(`${app.baseUrl}/v1/public/api/tasks/WEB-1/attachments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: uploadOf(100_000),
    });

    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ statusCode: 404, message: 'Task not found' });
  });

  it("an upload with a key lacking the scope gets its 403, read by Node's fetch", async () => {
    const reader = await fx.key({ scopes: ['task:read'] });

    const response = await fetch(`${app.baseUrl}/v1/public/web/tasks/WEB-1/attachments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${reader}` },
      body: uploadOf(100_000),
    });

    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ statusCode: 403, message: 'Missing required scope: task:create' });
  });

  it('a client still sending when a 413 comes reads it afterwards: the server does not reset the connection', async () => {
    const head = `POST /v1/public/web/tasks/WEB-1/attachments HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${key}\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: 30000000\r\n\r\n`;

    const response = await slowReaderRequest(app.baseUrl, head, 2 * 1024 * 1024);

    expect(response.status).toBe(413);
    expect(JSON.parse(response.body).statusCode).toBe(413);
  });

  // A Next.js route reads its body through a web Request over the request stream, which on
  // Node 26 begins reading as it is built, and on both as soon as the route reads: the drain
  // must take the rest from that reader.
  const chunked = (body: Buffer) => Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]);
  it.each([
    ['an upload without a key', 'POST /v1/public/web/tasks/WEB-1/attachments', 'multipart/form-data; boundary=x', false, 401],
    ['a settings call without a session', 'POST /api/internal/keys.create', 'application/json', false, 401],
    ['a sign-in over its limit, its body chunked', 'POST /api/auth/sign-in/email', 'application/json', true, 413],
  ])(
    'drains the unread body of an early answer to %s, so the connection serves the next request',
    async (_, line, type, isChunked, status) => {
      const body = Buffer.alloc(200_000, ' ');
      const framing = isChunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${body.length}`;
      const [refused, next] = await rawExchange(
        app.baseUrl,
        [
          `${line} HTTP/1.1\r\nHost: ${host}\r\nOrigin: ${app.baseUrl}\r\nContent-Type: ${type}\r\n${framing}\r\n\r\n`,
          isChunked ? chunked(body) : body,
          `GET /v1/public/web/statuses HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`,
        ],
        2,
        { localAddress: loopbackAddress() },
      );

      expect(refused!.status).toBe(status);
      expect(next!.status).toBe(200);
    },
  );

  const signInFirst = { error: { message: 'Sign in to continue' } };
  const tooLarge = { message: 'Request body too large' };
  const megabyte = Buffer.alloc(1_000_000, ' ');
  it.each([
    ['a settings call without a session', '/api/internal/keys.create', {}, JSON.stringify({ name: 'CI' }), 401, signInFirst],
    ['a settings call without a session, with a 1 MB body', '/api/internal/keys.create', {}, megabyte, 401, signInFirst],
    ['a sign-in with a 1 MB body', '/api/auth/sign-in/email', {}, megabyte, 413, tooLarge],
    ['a sign-in with a 1 MB body, chunked', '/api/auth/sign-in/email', { 'transfer-encoding': 'chunked' }, megabyte, 413, tooLarge],
  ])(
    "%s, from Node's http.request with agent: false (Connection: close), gets its answer to the end",
    async (_, path, framing, body, status, answer) => {
      const response = await requestFrom(loopbackAddress(), `${app.baseUrl}${path}`, {
        method: 'POST',
        headers: { origin: app.baseUrl, 'content-type': 'application/json', connection: 'close', ...framing },
        body,
      });

      expect(response.status).toBe(status);
      expect(response.headers.connection).toBe('close');
      expect(JSON.parse(response.body)).toMatchObject(answer);
    },
  );
});
