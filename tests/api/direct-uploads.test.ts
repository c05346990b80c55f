import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as uploadRoute from '../../app/storage/uploads/[id]/route';
import { sweepExpiredUploads } from '../../server/attachments/direct-upload';
import { db } from '../../server/db/client';
import { env } from '../../server/env';
import { requestUrl, sendWebResponse, toWebRequest } from '../../server/http/node-bridge';
import { MAX_UPLOAD_BYTES } from '../../server/schemas/attachment';
import { settleStorage } from '../../server/storage/storage';
import { apiClient } from '../support/client';
import { createWorkspaceFixture, type WorkspaceFixture } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/http';

// Dozens of requests from one key: the per-key limit is counted with a fresh key below.
process.env.RATE_LIMIT_PER_MINUTE = '10000';

const MINUTE_MS = 60_000;
const TOO_LARGE = 'File too large: the limit is 10 MB (10485760 bytes)';
const LINK_REFUSED = { statusCode: 403, message: 'Upload link expired or invalid' };

let server: TestServer;
let fixture: WorkspaceFixture;
let client: ReturnType<typeof apiClient>;

beforeAll(async () => {
  server = await startTestServer();
  fixture = await createWorkspaceFixture();
  client = apiClient(server.baseUrl, await fixture.key());
});

afterEach(() => {
  vi.useRealTimers();
});

afterAll(async () => {
  await settleStorage();
  await server.close();
});

function storageDir(): string {
  const { storage } = env();
  if (storage.kind !== 'local') throw new Error('expected local storage');
  return storage.dir;
}
const storedFiles = () => (fs.existsSync(storageDir()) ? fs.readdirSync(storageDir()) : []);

async function createTask(projectSlug = 'web'): Promise<{ id: string; externalId: string }> {
  const response = await client.post(`/${projectSlug}/tasks`, { title: 'Gets a direct upload' });
  expect(response.status).toBe(201);
  return response.body;
}

const uploadsPath = (taskId: string, projectSlug = 'web') => `/${projectSlug}/tasks/${taskId}/attachments/uploads` as const;
const completePath = (taskId: string, uploadId: string) => `${uploadsPath(taskId)}/${uploadId}/complete` as const;

interface DirectUpload {
  uploadId: string;
  uploadUrl: string;
  method: 'PUT';
  headers: Record<string, string>;
  expiresAt: string;
}

async function start(taskId: string, file: { filename?: string; mimeType?: string; size: number }, as = client): Promise<DirectUpload> {
  const response = await as.post(uploadsPath(taskId), { filename: 'report.pdf', ...file });
  expect(response.status).toBe(201);
  return response.body;
}

/** Upload URLs point at APP_URL; the test server listens elsewhere. */
const onTestServer = (url: string) => {
  const link = new URL(url);
  return `${server.baseUrl}${link.pathname}${link.search}`;
};

function put(upload: DirectUpload, body: BodyInit, url = onTestServer(upload.uploadUrl)) {
  return fetch(url, { method: upload.method, headers: upload.headers, body, duplex: 'half' } as RequestInit);
}

/** The row that remembers an upload; undefined once it is swept. */
const pendingRow = (uploadId: string) => db().pendingUpload.findUnique({ where: { id: uploadId } });

/** Moves the clock of this process (the server's too) `ms` ahead; timers keep running. */
function later(ms: number) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + ms);
}

describe('start a direct upload', () => {
  it('answers 201 with a URL on the app itself, the method, the headers to send and when it expires', async () => {
    const task = await createTask();
    const before = Date.now();

    const response = await client.post(uploadsPath(task.id), { filename: 'scan.png', mimeType: 'image/png', size: 1234 });

    expect(response.status).toBe(201);
    const { uploadId, uploadUrl, method, headers, expiresAt } = response.body;
    expect(uploadId).toMatch(/^[0-9a-f-]{36}$/);
    expect(uploadUrl).toMatch(new RegExp(`^${env().appUrl}/storage/uploads/${uploadId}\\?expires=\\d+&signature=[\\w-]+$`));
    expect(method).toBe('PUT');
    expect(headers).toEqual({ 'Content-Type': 'image/png' });
    expect(Date.parse(expiresAt) - before).toBeGreaterThan(15 * MINUTE_MS - 2000);
    expect(Date.parse(expiresAt) - Date.now()).toBeLessThanOrEqual(15 * MINUTE_MS);
    expect(Number(new URL(uploadUrl).searchParams.get('expires')) * 1000).toBe(Date.parse(expiresAt));
    expect(response.headers.get('x-ratelimit-limit')).toBe('10000');
  });

  it('derives mimeType from the filename when it is missing or application/octet-stream', async () => {
    const task = await createTask();
    expect((await start(task.id, { filename: 'notes.md', size: 1 })).headers['Content-Type']).toBe('text/markdown');
    const octets = await start(task.id, { filename: 'photo.JPG', mimeType: 'application/octet-stream', size: 1 });
    expect(octets.headers['Content-Type']).toBe('image/jpeg');
  });

  it('answers 413 to a size over 10 MB before any URL is issued', async () => {
    const task = await createTask();
    const before = await db().pendingUpload.count();

    const response = await client.post(uploadsPath(task.id), { filename: 'big.bin', size: MAX_UPLOAD_BYTES + 1 });

    expect(response.status).toBe(413);
    expect(response.body).toEqual({ statusCode: 413, message: TOO_LARGE });
    expect(await db().pendingUpload.count()).toBe(before);
  });

  it('accepts a size of exactly 10 MB', async () => {
    const task = await createTask();
    expect((await client.post(uploadsPath(task.id), { filename: 'exact.bin', size: MAX_UPLOAD_BYTES })).status).toBe(201);
  });

  it.each([
    [{ filename: 'a.txt' }, 'size: must be a whole number of bytes'],
    [{ filename: 'a.txt', size: -1 }, 'size: must be a whole number of bytes'],
    [{ filename: 'a.txt', size: 1.5 }, 'size: must be a whole number of bytes'],
    [{ filename: '', size: 1 }, 'filename: must be 1 to 1024 characters'],
    [{ filename: 'a.txt', size: 1, mimeType: 'png' }, 'mimeType: must be a media type such as image/png'],
    [{ filename: 'a.txt', size: 1, url: 'x' }, 'Unknown field: url'],
  ])('answers 400 to %j', async (body, message) => {
    const task = await createTask();
    const response = await client.post(uploadsPath(task.id), body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ statusCode: 400, message });
  });

  it('keeps the filename as data, as the multipart upload does', async () => {
    const task = await createTask();
    const upload = await start(task.id, { filename: '../../etc/passwd\u0007.txt', size: 2 });
    expect((await put(upload, 'ok')).status).toBe(200);

    const completed = await client.post(completePath(task.id, upload.uploadId));

    expect(completed.body.filename).toBe('passwd.txt');
  });

  it('answers 404 for an unknown task and for a task of another project', async () => {
    const other = await createTask('api');
    for (const taskId of [randomUUID(), other.id]) {
      const response = await client.post(uploadsPath(taskId), { filename: 'a.txt', size: 1 });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ statusCode: 404, message: 'Task not found' });
    }
  });
});

describe('the whole flow on local disk', () => {
  it('takes a 9.5 MB file through its URL and completes it into an attachment downloaded byte for byte', async () => {
    const task = await createTask();
    const bytes = randomBytes(9.5 * 1024 * 1024);
    const upload = await start(task.id, { filename: 'dump.bin', mimeType: 'application/x-dump', size: bytes.length });

    const sent = await put(upload, bytes);
    expect(sent.status).toBe(200);
    expect(await sent.json()).toEqual({ size: bytes.length });
    const completed = await client.post(completePath(task.id, upload.uploadId));

    expect(completed.status).toBe(201);
    expect(completed.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      filename: 'dump.bin',
      url: expect.any(String),
      mimeType: 'application/x-dump',
      size: bytes.length,
      createdAt: expect.any(String),
    });
    const fetched = await client.get(`/web/tasks/${task.id}/attachments/${completed.body.id}`);
    expect(fetched.body).toEqual({ ...completed.body, url: expect.any(String) });
    const download = await fetch(onTestServer(fetched.body.url));
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
    expect((await client.get(`/web/tasks/${task.id}`)).body.attachments).toEqual([{ id: completed.body.id, filename: 'dump.bin' }]);
  });

  it('answers a second complete with the same attachment, recorded once', async () => {
    const task = await createTask();
    const upload = await start(task.id, { size: 5 });
    await put(upload, 'bytes');

    const first = await client.post(completePath(task.id, upload.uploadId));
    const second = await client.post(completePath(task.id, upload.uploadId));

    expect(second.status).toBe(201);
    expect(second.body).toEqual({ ...first.body, url: expect.any(String) });
    expect(await db().attachment.count({ where: { taskId: task.id } })).toBe(1);
  });

  it('records one attachment when completes arrive together', async () => {
    const task = await createTask();
    const upload = await start(task.id, { size: 5 });
    await put(upload, 'bytes');

    const answers = await Promise.all([1, 2, 3].map(() => client.post(completePath(task.id, upload.uploadId))));

    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201]);
    expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1);
    expect(await db().attachment.count({ where: { taskId: task.id } })).toBe(1);
  });

  it('accepts complete with an empty JSON body too', async () => {
    const task = await createTask();
    const upload = await start(task.id, { size: 1 });
    await put(upload, 'x');
    expect((await client.post(completePath(task.id, upload.uploadId), {})).status).toBe(201);
  });

  it('answers 400 to complete before the bytes were sent', async () => {
    const task = await createTask();
    const upload = await start(task.id, { size: 5 });

    const response = await client.post(completePath(task.id, upload.uploadId));

    expect(response.status).toBe(400);
    expect(response.body).toEqual({ statusCode: 400, message: 'Upload not received: send the file to uploadUrl first' });
  });

  it('refuses fewer bytes than announced at complete, deletes them, and lets the URL take the right ones', async () => {
    const task = await createTask();
    const upload = await start(task.id, { size: 10 });
    expect((await put(upload, 'short')).status).toBe(200);
    const key = (await pendingRow(upload.uploadId))!.storageKey;

    const refused = await client.post(completePath(task.id, upload.uploadId));

    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ statusCode: 400, message: 'size: the uploaded file has 5 bytes, not the announced 10' });
    expect(storedFiles()).not.toContain(key);
    expect((await put(upload, 'just right')).status).toBe(200);
    expect((await client.post(completePath(task.id, upload.uploadId))).status).toBe(201);
  });

  it("answers 404 to completing another task's upload, and leaves it to its own task", async () => {
    const task = await createTask();
    const other = await createTask();
    const upload = await start(task.id, { size: 1 });
    await put(upload, 'x');

    const response = await client.post(completePath(other.id, upload.uploadId));

    expect(response.status).toBe(404);
    expect(response.body).toEqual({ statusCode: 404, message: 'Upload not found' });
    expect((await client.post(completePath(task.id, upload.uploadId))).status).toBe(201);
  });

  it("answers 404 to another workspace's key", async () => {
    const task = await createTask();
    const upload = await start(task.id, { size: 1 });
    await put(upload, 'x');
    const elsewhere = await createWorkspaceFixture();

    const response = await apiClient(server.baseUrl, await elsewhere.key()).post(completePath(task.id, upload.uploadId));

    expect(response.status).toBe(404);
  });

  it('answers 404 to an unknown upload and 400 to an uploadId that is no UUID', async () => {
    const task = await createTask();
    expect((await client.post(completePath(task.id, randomUUID()))).body).toEqual({ statusCode: 404, message: 'Upload not found' });
    const response = await client.post(completePath(task.id, 'not-a-uuid'));
    expect(response.body).toEqual({ statusCode: 400, message: 'uploadId: must be a UUID' });
  });

  it('removes an upload never completed, with its file, once its time is up', async () => {
    const task = await createTask();
    const upload = await start(task.id, { size: 5 });
    await put(upload, 'bytes');
    const key = (await pendingRow(upload.uploadId))!.storageKey;
    expect(storedFiles()).toContain(key);

    // 15 minutes for the URL, 15 more to complete: then the purge removes it.
    later(30 * MINUTE_MS + 1000);
    await sweepExpiredUploads(db());

    expect(await pendingRow(upload.uploadId)).toBeNull();
    expect(storedFiles()).not.toContain(key);
    expect((await client.post(completePath(task.id, upload.uploadId))).status).toBe(404);
  });

  it('keeps the file of an upload that was completed when its record is swept', async () => {
    const task = await createTask();
    const upload = await start(task.id, { size: 5 });
    await put(upload, 'bytes');
    const attachment = (await client.post(completePath(task.id, upload.uploadId))).body;

    later(30 * MINUTE_MS + 1000);
    await sweepExpiredUploads(db());

    expect(await pendingRow(upload.uploadId)).toBeNull();
    const fetched = await client.get(`/web/tasks/${task.id}/attachments/${attachment.id}`);
    expect(await (await fetch(onTestServer(fetched.body.url))).text()).toBe('bytes');
  });
});

describe('the upload URL', () => {
  it('refuses bytes beyond the announced size with 413 while they stream, and keeps nothing', async () => {
    const task = await createTask();
    const upload = await start(task.id, { size: 1000 });
    const before = storedFiles();
    // No Content-Length: the body is counted as it comes.
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(600));
        controller.enqueue(new Uint8Array(600));
        controller.close();
      },
    });

    const response = await put(upload, body);
    await settleStorage();

    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ statusCode: 413, message: 'File larger than the announced 1000 bytes' });
    expect(storedFiles()).toEqual(before);
    expect((await client.post(completePath(task.id, upload.uploadId))).status).toBe(400);
  });

  it('answers 413 to a Content-Length over the announced size without reading the body', async () => {
    const task = await createTask();
    const upload = await start(task.id, { size: 10 });
    const target = new URL(onTestServer(upload.uploadUrl));

    const response = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.request(
        {
          hostname: target.hostname,
          port: target.port,
          method: 'PUT',
          path: target.pathname + target.search,
          headers: { 'content-length': String(50 * 1000 * 1000) },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => {
            resolve({ status: res.statusCode ?? 0, body: text });
            request.destroy();
          });
        },
      );
      request.on('error', reject);
      // Only the start is ever sent: the answer must not wait for the rest.
      request.write(Buffer.alloc(1024));
    });

    expect(response.status).toBe(413);
    expect(JSON.parse(response.body)).toEqual({ statusCode: 413, message: 'File larger than the announced 10 bytes' });
  });

  it('works once: a second PUT is refused with 409 and the first bytes stay', async () => {
    const task = await createTask();
    const upload = await start(task.id, { size: 5 });
    expect((await put(upload, 'first')).status).toBe(200);

    const again = await put(upload, 'other');

    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ statusCode: 409, message: 'This upload URL has been used already' });
    const completed = await client.post(completePath(task.id, upload.uploadId));
    expect(await (await fetch(onTestServer(completed.body.url))).text()).toBe('first');
  });

  it('is refused with 403 once expired', async () => {
    const task = await createTask();
    const upload = await start(task.id, { size: 5 });

    later(15 * MINUTE_MS + 1000);
    const response = await put(upload, 'bytes');

    expect(response.status).toBe(403);
    expect(await response.json()).toEqual(LINK_REFUSED);
    expect(await db().pendingUpload.findUnique({ where: { id: upload.uploadId } })).toMatchObject({ urlUsedAt: null });
  });

  it.each([
    // No signature of 32 bytes ends in x: the last character carries 4 bits and 2 of padding.
    ['its signature', (url: URL) => url.searchParams.set('signature', `${url.searchParams.get('signature')!.slice(0, -1)}x`)],
    ['its expiry', (url: URL) => url.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600))],
    ['its upload', (url: URL) => (url.pathname = `/storage/uploads/${randomUUID()}`)],
    ['nothing but a lost signature', (url: URL) => url.searchParams.delete('signature')],
  ])('is refused with 403 when %s was changed', async (_what, tamper) => {
    const task = await createTask();
    const upload = await start(task.id, { size: 5 });
    const url = new URL(onTestServer(upload.uploadUrl));
    tamper(url);

    const response = await put(upload, 'bytes', url.toString());

    expect(response.status).toBe(403);
    expect(await response.json()).toEqual(LINK_REFUSED);
  });

  it("cannot take another upload's bytes: each URL names its own", async () => {
    const task = await createTask();
    const mine = await start(task.id, { size: 5 });
    const theirs = await start(task.id, { size: 5 });
    const url = new URL(onTestServer(mine.uploadUrl));
    url.pathname = new URL(theirs.uploadUrl).pathname;

    expect((await put(mine, 'bytes', url.toString())).status).toBe(403);
    expect(await pendingRow(theirs.uploadId)).toMatchObject({ urlUsedAt: null });
  });

  it('answers a CORS preflight, and 405 to another method', async () => {
    const task = await createTask();
    const upload = await start(task.id, { size: 5 });

    const preflight = await fetch(onTestServer(upload.uploadUrl), { method: 'OPTIONS' });
    const get = await fetch(onTestServer(upload.uploadUrl));

    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toBe('PUT, OPTIONS');
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('PUT, OPTIONS');
  });

  it('is served the same by the App Router route, as under next dev', async () => {
    const task = await createTask();
    const upload = await start(task.id, { size: 5 });
    // The route file behind a plain node:http server, as Next.js hands requests to it.
    const next = http.createServer((incoming, outgoing) => {
      const handler = uploadRoute[incoming.method as 'PUT' | 'OPTIONS'];
      void handler(toWebRequest(incoming, requestUrl(incoming), undefined)).then((response) =>
        sendWebResponse(response, incoming, outgoing),
      );
    });
    await new Promise<void>((resolve) => next.listen(0, '127.0.0.1', resolve));
    const link = new URL(upload.uploadUrl);
    const url = `http://127.0.0.1:${(next.address() as AddressInfo).port}${link.pathname}${link.search}`;

    try {
      expect((await put(upload, 'sixty', url)).status).toBe(200);
      expect((await put(upload, 'again', url)).status).toBe(409);
    } finally {
      await new Promise((resolve) => next.close(resolve));
    }
    expect((await client.post(completePath(task.id, upload.uploadId))).body.size).toBe(5);
  });
});

describe('checks, in the order of every request', () => {
  it('counts both steps against the key, not the PUT', async () => {
    const key = await fixture.key();
    const fresh = apiClient(server.baseUrl, key);
    const task = await createTask();

    const started = await fresh.post(uploadsPath(task.id), { filename: 'a.txt', size: 1 });
    await put(started.body, 'x');
    const completed = await fresh.post(completePath(task.id, started.body.uploadId));

    expect(started.headers.get('x-ratelimit-remaining')).toBe('9999');
    expect(completed.headers.get('x-ratelimit-remaining')).toBe('9998');
  });

  it('key (401) before scope, scope (403) before project, project (404) before input, input (400) before task', async () => {
    const task = await createTask();
    const reader = apiClient(server.baseUrl, await fixture.key({ scopes: ['task:read', 'task:update'] }));
    const apiOnly = apiClient(server.baseUrl, await fixture.key({ projectId: fixture.projects.api.id }));
    const bad = { filename: 'a.txt', size: -1 };
    const upload = await start(task.id, { size: 1 });

    for (const path of [uploadsPath(task.id), completePath(task.id, upload.uploadId)]) {
      expect((await apiClient(server.baseUrl).post(path, bad)).status).toBe(401);
      expect((await reader.post(path, bad)).body).toEqual({ statusCode: 403, message: 'Missing required scope: task:create' });
      expect((await client.post(path.replace('/web/', '/nope/'), bad)).body).toEqual({ statusCode: 404, message: 'Project not found' });
      expect((await apiOnly.post(path, bad)).body).toEqual({ statusCode: 403, message: 'API key does not have access to project web' });
    }
    expect((await client.post(uploadsPath(randomUUID()), bad)).status).toBe(400);
    expect((await client.post(completePath(randomUUID(), 'not-a-uuid'))).status).toBe(400);
    expect((await client.post(completePath(randomUUID(), upload.uploadId))).body).toEqual({ statusCode: 404, message: 'Task not found' });
  });

  it('the uploads path is no attachment: GET answers 405 with Allow, OPTIONS names POST', async () => {
    const task = await createTask();

    const get = await client.get(uploadsPath(task.id));
    const options = await client.call('OPTIONS', uploadsPath(task.id));

    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST, OPTIONS');
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('POST, OPTIONS');
  });

  it('answers 415 to a body that is not JSON, on both steps', async () => {
    const task = await createTask();
    const upload = await start(task.id, { size: 1 });
    for (const path of [uploadsPath(task.id), completePath(task.id, upload.uploadId)]) {
      const response = await client.post(path, 'filename=a', { 'content-type': 'application/x-www-form-urlencoded' });
      expect(response.status).toBe(415);
    }
  });
});
