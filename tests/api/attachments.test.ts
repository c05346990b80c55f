import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { MAX_UPLOAD_BYTES } from '../../server/schemas/attachment';
import { recordAttachment, storeFile } from '../../server/attachments/upload';
import { db } from '../../server/db/client';
import { env } from '../../server/env';
import { settleStorage } from '../../server/storage/storage';
import { apiClient, errorOf } from '../support/client';
import { createWorkspaceFixture, type WorkspaceFixture } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/http';
import { PATIENCE_MS } from '../support/patience';

// Dozens of requests from one key: the per-key limit has its own tests.
process.env.RATE_LIMIT_PER_MINUTE = '10000';

/** The local store's folder: these tests never configure Vercel Blob. */
function storageDir(): string {
  const { storage } = env();
  if (storage.kind !== 'local') throw new Error('expected local storage');
  return storage.dir;
}

const UPLOAD_AS_MULTIPART = 'Upload the file as multipart/form-data with one part named file';
const TOO_LARGE = 'File too large: the limit is 10 MB (10485760 bytes)';

let server: TestServer;
let fixture: WorkspaceFixture;
let key: string;
let client: ReturnType<typeof apiClient>;

beforeAll(async () => {
  server = await startTestServer();
  fixture = await createWorkspaceFixture();
  key = await fixture.key();
  client = apiClient(server.baseUrl, key);
});

afterAll(async () => {
  await settleStorage();
  await server.close();
});

async function createTask(projectSlug = 'web'): Promise<{ id: string; externalId: string }> {
  const response = await client.post(`/${projectSlug}/tasks`, { title: 'Has attachments' });
  expect(response.status).toBe(201);
  return response.body;
}

function form(content: BlobPart, filename: string, type?: string): FormData {
  const data = new FormData();
  data.append('file', new Blob([content], type === undefined ? {} : { type }), filename);
  return data;
}

/** A multipart body written by hand, for parts FormData cannot express. */
function multipart(parts: { headers: string[]; content: string }[]) {
  const boundary = `----test${randomBytes(8).toString('hex')}`;
  const body = parts.map((part) => `--${boundary}\r\n${part.headers.join('\r\n')}\r\n\r\n${part.content}\r\n`).join('');
  return { body: `${body}--${boundary}--\r\n`, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const uploadPath = (taskId: string, projectSlug = 'web') => `/${projectSlug}/tasks/${taskId}/attachments` as const;

async function upload(taskId: string, body: FormData | { body: string; headers: Record<string, string> }) {
  return body instanceof FormData ? client.post(uploadPath(taskId), body) : client.post(uploadPath(taskId), body.body, body.headers);
}

/** Links point at APP_URL; the test server listens elsewhere. */
const onTestServer = (url: string) => {
  const link = new URL(url);
  return `${server.baseUrl}${link.pathname}${link.search}`;
};

const storedFiles = () => (fs.existsSync(storageDir()) ? fs.readdirSync(storageDir()) : []);

describe('upload attachment', () => {
  it('answers 201 with the full Attachment record', async () => {
    const task = await createTask();
    const before = Date.now();

    const response = await upload(task.id, form('hello, world\n', 'notes.txt', 'text/plain'));

    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      filename: 'notes.txt',
      url: expect.any(String),
      mimeType: 'text/plain',
      size: 13,
      createdAt: expect.any(String),
    });
    expect(Date.parse(response.body.createdAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(response.headers.get('x-request-id')).toBeTruthy();
    expect(response.headers.get('x-ratelimit-limit')).toBe('10000');
  });

  it('takes mimeType from the part', async () => {
    const task = await createTask();
    const response = await upload(task.id, form('{}', 'data.bin', 'application/json'));
    expect(response.body.mimeType).toBe('application/json');
  });

  it('derives mimeType from the filename when the part says application/octet-stream', async () => {
    const task = await createTask();
    const response = await upload(task.id, form(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), 'diagram.PNG', 'application/octet-stream'));
    expect(response.status).toBe(201);
    expect(response.body.mimeType).toBe('image/png');
  });

  it('derives mimeType from the filename when the part has no Content-Type', async () => {
    const task = await createTask();
    const body = multipart([{ headers: ['Content-Disposition: form-data; name="file"; filename="report.pdf"'], content: '%PDF' }]);
    const response = await upload(task.id, body);
    expect(response.status).toBe(201);
    expect(response.body.mimeType).toBe('application/pdf');
  });

  it('falls back to application/octet-stream for an unknown extension', async () => {
    const task = await createTask();
    const response = await upload(task.id, form('x', 'data.weird', 'application/octet-stream'));
    expect(response.body.mimeType).toBe('application/octet-stream');
  });

  it('accepts the task external ID and a trailing slash', async () => {
    const task = await createTask();
    const response = await client.post(`/web/tasks/${task.externalId.toLowerCase()}/attachments/`, form('x', 'a.txt'));
    expect(response.status).toBe(201);
  });

  it('answers 400 when there is no part named file', async () => {
    const task = await createTask();
    const data = new FormData();
    data.append('note', 'no file here');
    data.append('attachment', new Blob(['x']), 'a.txt');

    const response = await upload(task.id, data);

    expect(response.status).toBe(400);
    expect(response.body).toEqual({ statusCode: 400, message: 'file: a file part named file is required' });
  });

  it('ignores extra fields beside the file', async () => {
    const task = await createTask();
    const data = form('x', 'a.txt');
    data.append('comment', 'see attached');
    expect((await upload(task.id, data)).status).toBe(201);
  });

  it('answers 400 to a second file part and keeps nothing', async () => {
    const task = await createTask();
    const data = form('first', 'one.txt');
    data.append('file', new Blob(['second']), 'two.txt');
    const before = storedFiles();

    const response = await upload(task.id, data);
    await settleStorage();

    expect(response.status).toBe(400);
    expect(response.body).toEqual({ statusCode: 400, message: 'file: only one file part is allowed' });
    expect(await db().attachment.count({ where: { taskId: task.id } })).toBe(0);
    expect(storedFiles()).toEqual(before);
  });

  it('answers 415 to a JSON body, after the key is checked', async () => {
    const task = await createTask();

    const unauthenticated = await apiClient(server.baseUrl).post(uploadPath(task.id), { file: 'x' });
    const response = await client.post(uploadPath(task.id), { file: 'x' });

    expect(unauthenticated.status).toBe(401);
    expect(response.status).toBe(415);
    expect(response.body).toEqual({ statusCode: 415, message: UPLOAD_AS_MULTIPART });
  });

  it('answers 415 to a body that is not multipart/form-data', async () => {
    const task = await createTask();
    const response = await client.post(uploadPath(task.id), 'hello', { 'content-type': 'text/plain' });
    expect(response.status).toBe(415);
    expect(response.body).toEqual({ statusCode: 415, message: UPLOAD_AS_MULTIPART });
  });

  it('answers 415 to multipart/form-data without a boundary', async () => {
    const task = await createTask();
    const response = await client.post(uploadPath(task.id), 'hello', { 'content-type': 'multipart/form-data' });
    expect(response.status).toBe(415);
  });

  it('answers 401 without a key', async () => {
    const task = await createTask();
    const response = await apiClient(server.baseUrl).post(uploadPath(task.id), form('x', 'a.txt'));
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ statusCode: 401, message: 'Invalid API key' });
  });

  it('answers 403 to a key without task:create', async () => {
    const task = await createTask();
    const reader = apiClient(server.baseUrl, await fixture.key({ scopes: ['task:read', 'task:update'] }));

    const response = await reader.post(uploadPath(task.id), form('x', 'a.txt'));

    expect(response.status).toBe(403);
    expect(response.body).toEqual({ statusCode: 403, message: 'Missing required scope: task:create' });
  });

  it('answers 403 to a key scoped to another project', async () => {
    const task = await createTask();
    const apiOnly = apiClient(server.baseUrl, await fixture.key({ projectId: fixture.projects.api.id }));
    expect((await apiOnly.post(uploadPath(task.id), form('x', 'a.txt'))).status).toBe(403);
  });

  it('answers 404 for an unknown project', async () => {
    const response = await client.post(uploadPath(randomUUID(), 'nope'), form('x', 'a.txt'));
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ statusCode: 404, message: 'Project not found' });
  });

  it('answers 404 for an unknown task', async () => {
    const response = await upload(randomUUID(), form('x', 'a.txt'));
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ statusCode: 404, message: 'Task not found' });
  });

  it('answers 404 for a task of another project', async () => {
    const task = await createTask('api');
    const response = await upload(task.id, form('x', 'a.txt'));
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ statusCode: 404, message: 'Task not found' });
  });

  it('answers 413 to a file of 10 MiB + 1 byte and stores nothing', async () => {
    const task = await createTask();
    const before = storedFiles();

    const response = await upload(task.id, form(new Uint8Array(MAX_UPLOAD_BYTES + 1), 'big.bin'));
    await settleStorage();

    expect(response.status).toBe(413);
    expect(response.body).toEqual({ statusCode: 413, message: TOO_LARGE });
    expect(await db().attachment.count({ where: { taskId: task.id } })).toBe(0);
    expect(storedFiles()).toEqual(before);
  });

  it('accepts a file of exactly 10 MiB', async () => {
    const task = await createTask();
    const response = await upload(task.id, form(new Uint8Array(MAX_UPLOAD_BYTES), 'exact.bin'));
    expect(response.status).toBe(201);
    expect(response.body.size).toBe(MAX_UPLOAD_BYTES);
  });

  it('answers 413 to a body announced as 50 MB without reading it', async () => {
    const task = await createTask();
    const { hostname, port } = new URL(server.baseUrl);
    const response = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.request(
        {
          hostname,
          port,
          method: 'POST',
          path: `/v1/public${uploadPath(task.id)}`,
          headers: {
            authorization: `Bearer ${key}`,
            'content-type': 'multipart/form-data; boundary=x',
            'content-length': String(50 * 1000 * 1000),
          },
        },
        (res) => {
          let body = '';
          res.on('data', (chunk) => (body += chunk));
          res.on('end', () => {
            resolve({ status: res.statusCode ?? 0, body });
            request.destroy();
          });
        },
      );
      request.on('error', reject);
      // Only the start of the body is ever sent: the answer must not wait for the rest.
      request.write('--x\r\n');
    });

    expect(response.status).toBe(413);
    expect(JSON.parse(response.body)).toEqual({ statusCode: 413, message: TOO_LARGE });
  });

  it('leaves no file behind when the client goes away mid-upload', async () => {
    const task = await createTask();
    const before = storedFiles();
    const { hostname, port } = new URL(server.baseUrl);
    const request = http.request({
      hostname,
      port,
      method: 'POST',
      path: `/v1/public${uploadPath(task.id)}`,
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'multipart/form-data; boundary=x',
        'content-length': String(2 * 1024 * 1024),
      },
    });
    request.on('error', () => undefined);
    request.write('--x\r\nContent-Disposition: form-data; name="file"; filename="cut.bin"\r\n\r\n');
    request.write(Buffer.alloc(512 * 1024));
    await vi.waitFor(() => expect(storedFiles().some((name) => name.endsWith('.partial'))).toBe(true), { timeout: PATIENCE_MS });

    request.destroy();

    await vi.waitFor(
      async () => {
        await settleStorage();
        expect(storedFiles()).toEqual(before);
      },
      { timeout: PATIENCE_MS },
    );
    expect(await db().attachment.count({ where: { taskId: task.id } })).toBe(0);
  });

  it('keeps the filename as data: path components dropped, quotes kept', async () => {
    const task = await createTask();
    const body = multipart([
      {
        headers: [
          `Content-Disposition: form-data; name="file"; filename*=UTF-8''..%2F..%2Fapp-secret%20%22quoted%22%20r%C3%A9sum%C3%A9.txt`,
          'Content-Type: text/plain',
        ],
        content: 'safe',
      },
    ]);

    const response = await upload(task.id, body);

    expect(response.status).toBe(201);
    expect(response.body.filename).toBe('app-secret "quoted" résumé.txt');
    expect(storedFiles().every((name) => /^[A-Za-z0-9_-]+$/.test(name))).toBe(true);
    const download = await fetch(onTestServer(response.body.url));
    expect(download.headers.get('content-disposition')).toBe(
      `attachment; filename="app-secret _quoted_ r_sum_.txt"; filename*=UTF-8''app-secret%20%22quoted%22%20r%C3%A9sum%C3%A9.txt`,
    );
    expect(await download.text()).toBe('safe');
  });

  it('keeps a raw UTF-8 filename as sent by browsers', async () => {
    const task = await createTask();
    const response = await upload(task.id, form('x', 'Übersicht 📄.txt', 'text/plain'));
    expect(response.body.filename).toBe('Übersicht 📄.txt');
  });

  it('names a file without a filename "file"', async () => {
    const task = await createTask();
    const body = multipart([
      { headers: ['Content-Disposition: form-data; name="file"', 'Content-Type: application/octet-stream'], content: 'x' },
    ]);
    const response = await upload(task.id, body);
    expect(response.status).toBe(201);
    expect(response.body.filename).toBe('file');
  });

  it('caps the filename at 255 characters', async () => {
    const task = await createTask();
    const response = await upload(task.id, form('x', `${'a'.repeat(300)}.txt`, 'text/plain'));
    expect(response.body.filename).toBe('a'.repeat(255));
  });

  it('deletes the stored file when the task is gone before the row is written', async () => {
    const before = storedFiles();
    const stored = await storeFile({ filename: 'late.txt', mimeType: 'text/plain', body: new Blob(['late']).stream() });
    expect(storedFiles()).toContain(stored.storageKey);

    await expect(recordAttachment(db(), { id: randomUUID(), slug: 'web', keyPrefix: 'WEB' }, randomUUID(), stored)).rejects.toThrow(
      'Task not found',
    );
    await settleStorage();

    expect(storedFiles()).toEqual(before);
  });

  it.runIf(inject('testDatabase').kind === 'postgres')(
    'deletes the stored file and answers 404 when the task is deleted while its row is written',
    async () => {
      const task = await createTask();
      const project = { id: fixture.projects.web.id, slug: 'web', keyPrefix: 'WEB' };
      const before = storedFiles();
      const stored = await storeFile({ filename: 'raced.txt', mimeType: 'text/plain', body: new Blob(['raced']).stream() });
      let deleted!: () => void;
      // The delete holds the task's row, so the insert finds the task and waits on its foreign key.
      const deleting = db().$transaction(async (tx) => {
        await tx.$executeRaw`DELETE FROM task WHERE id = ${task.id}::uuid`;
        await new Promise<void>((resolve) => (deleted = resolve));
      });
      await vi.waitFor(() => expect(deleted).toBeDefined(), { timeout: PATIENCE_MS });
      const recording = recordAttachment(db(), project, task.id, stored).then(
        () => null,
        (error: unknown) => error,
      );
      await vi.waitFor(
        async () => {
          const [row] = await db().$queryRaw<{ waiting: number }[]>`
          SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
          expect(row?.waiting).toBe(1);
        },
        { timeout: PATIENCE_MS },
      );
      deleted();
      await deleting;

      expect(await recording).toMatchObject({ kind: 'not_found', message: 'Task not found' });
      await settleStorage();
      expect(storedFiles()).toEqual(before);
    },
  );
});

describe('download URL', () => {
  it('downloads the exact bytes with Content-Type, Content-Length and Content-Disposition', async () => {
    const task = await createTask();
    const bytes = randomBytes(100_000);
    const uploaded = await upload(task.id, form(bytes, 'photo.jpg', 'image/jpeg'));

    const response = await fetch(onTestServer(uploaded.body.url));

    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    expect(response.headers.get('content-length')).toBe('100000');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="photo.jpg"; filename*=UTF-8''photo.jpg`);
  });

  it('is valid for one hour', async () => {
    const task = await createTask();
    const uploaded = await upload(task.id, form('x', 'a.txt'));
    const expires = Number(new URL(uploaded.body.url).searchParams.get('expires'));
    expect(Math.abs(expires - (Date.now() / 1000 + 3600))).toBeLessThan(60);
  });
});

describe('task attachments', () => {
  it('lists {id, filename} on the task', async () => {
    const task = await createTask();
    const first = await upload(task.id, form('1', 'first.txt'));
    const second = await upload(task.id, form('2', 'second.txt'));

    const response = await client.get(`/web/tasks/${task.id}`);

    expect(response.body.attachments).toEqual([
      { id: first.body.id, filename: 'first.txt' },
      { id: second.body.id, filename: 'second.txt' },
    ]);
  });

  it('deleting the task removes its stored files', async () => {
    const task = await createTask();
    await upload(task.id, form('1', 'first.txt'));
    await upload(task.id, form('2', 'second.txt'));
    const keys = (await db().attachment.findMany({ where: { taskId: task.id } })).map((row) => row.storageKey);
    expect(storedFiles()).toEqual(expect.arrayContaining(keys));

    expect((await client.delete(`/web/tasks/${task.id}`)).status).toBe(200);
    await settleStorage();

    expect(storedFiles()).not.toEqual(expect.arrayContaining([keys[0]]));
    expect(storedFiles()).not.toEqual(expect.arrayContaining([keys[1]]));
  });
});

describe('get attachment', () => {
  async function uploaded() {
    const task = await createTask();
    const response = await upload(task.id, form('content', 'doc.txt', 'text/plain'));
    return { task, attachment: response.body };
  }

  it('answers 200 with the full record and a fresh download URL', async () => {
    const { task, attachment } = await uploaded();

    const response = await client.get(`/web/tasks/${task.id}/attachments/${attachment.id}`);

    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...attachment, url: expect.any(String) });
    expect(await (await fetch(onTestServer(response.body.url))).text()).toBe('content');
  });

  it("answers 404 through another task's path", async () => {
    const { attachment } = await uploaded();
    const other = await createTask();

    const response = await client.get(`/web/tasks/${other.id}/attachments/${attachment.id}`);

    expect(response.status).toBe(404);
    expect(response.body).toEqual({ statusCode: 404, message: 'Attachment not found' });
  });

  it('answers 404 for an unknown attachment', async () => {
    const { task } = await uploaded();
    const response = await client.get(`/web/tasks/${task.id}/attachments/${randomUUID()}`);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ statusCode: 404, message: 'Attachment not found' });
  });

  it('answers 400 when attachmentId is not a UUID', async () => {
    const { task } = await uploaded();
    const response = await client.get(`/web/tasks/${task.id}/attachments/not-a-uuid`);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ statusCode: 400, message: 'attachmentId: must be a UUID' });
  });
});

describe('attachments per task', () => {
  it('a task takes 100 attachments; the next upload answers 409 before storing a byte, and a direct upload is refused at its start', async () => {
    const task = await createTask();
    await db().$executeRaw`
      INSERT INTO attachment (id, task_id, filename, mime_type, size, storage_key, created_at)
      SELECT gen_random_uuid(), ${task.id}::uuid, 'earlier-' || n || '.txt', 'text/plain', 1, 'earlier' || n || ${task.id}, now()
      FROM generate_series(1, 99) AS n`;
    expect((await upload(task.id, form('the hundredth', 'last.txt', 'text/plain'))).status).toBe(201);
    const files = storedFiles().length;

    const refused = await upload(task.id, form('one too many', 'more.txt', 'text/plain'));
    const direct = await client.post(`/web/tasks/${task.id}/attachments/uploads`, { filename: 'more.txt', size: 12 });

    const limit = { statusCode: 409, message: 'Task already has 100 attachments, the most a task may have' };
    expect([refused.status, errorOf(refused)]).toEqual([409, limit]);
    expect([direct.status, errorOf(direct)]).toEqual([409, limit]);
    expect(storedFiles()).toHaveLength(files);
  });
});
