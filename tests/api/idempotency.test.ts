import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { db } from '../../server/db/client';
import { env } from '../../server/env';
import { requestFingerprint } from '../../server/api/idempotency';
import { claimKey, releaseClaim, sweepExpiredRecords } from '../../server/idempotency/records';
import { settleStorage } from '../../server/storage/storage';
import { useApi } from '../support/api';
import { rawRequest } from '../support/raw-http';
import { awayFromWindowEdge } from '../support/limit-window';

const api = useApi();

afterAll(async () => {
  await settleStorage();
});

const INVALID_KEY = { statusCode: 400, message: 'Idempotency-Key: must be 1 to 255 printable ASCII characters' };
const REUSED = { statusCode: 422, message: 'Idempotency-Key was already used for a different request' };
const IN_PROGRESS = { statusCode: 409, message: 'Idempotency-Key: a request with this key is still being processed; retry it shortly' };

const withKey = (key: string) => ({ 'idempotency-key': key });

async function createTask(title = 'Target'): Promise<{ id: string }> {
  const response = await api.client.post('/web/tasks', { title });
  expect(response.status).toBe(201);
  return response.body;
}

/** A key of its own, with its id, for tests that look at the records or the key's limit. */
async function ownKey() {
  const name = `Idempotency ${randomUUID()}`;
  const secret = await api.fixture.key({ name });
  const { id } = await db().apiKey.findFirstOrThrow({ where: { name }, select: { id: true } });
  return { id, client: api.clientWith(secret) };
}

/** A record of a create with `key`, as the database holds it, written by the test. */
function storeRecord(apiKeyId: string, key: string, body: object, fields: { lockedUntil?: Date; status?: number; expiresAt?: Date }) {
  return db().idempotencyRecord.create({
    data: {
      apiKeyId,
      key,
      fingerprint: requestFingerprint('POST', '/web/tasks', body),
      claimToken: randomUUID(),
      body: fields.status === undefined ? null : '{}',
      expiresAt: new Date(Date.now() + 86_400_000),
      ...fields,
    },
  });
}

function form(content: string, filename: string): FormData {
  const data = new FormData();
  data.append('file', new Blob([content], { type: 'text/plain' }), filename);
  return data;
}

describe('Idempotency-Key on POST and PATCH', () => {
  it('replays the answer to a repeated create unchanged, and creates the task once', async () => {
    const key = randomUUID();
    const title = `Once ${key}`;
    const first = await api.client.post('/web/tasks', { title, priority: 'high' }, withKey(key));
    const again = await api.client.post('/web/tasks', { priority: 'high', title }, withKey(key));
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(again.text).toBe(first.text);
    expect(await db().task.count({ where: { title } })).toBe(1);
  });

  it("replays the first answer's ETag with its body, for a create and for an update", async () => {
    const createKey = randomUUID();
    const first = await api.client.post('/web/tasks', { title: `Tagged ${createKey}` }, withKey(createKey));
    const again = await api.client.post('/web/tasks', { title: `Tagged ${createKey}` }, withKey(createKey));
    expect(first.headers.get('etag')).toMatch(/^"[\w-]+"$/);
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect((await api.client.get(`/web/tasks/${first.body.id}`)).headers.get('etag')).toBe(first.headers.get('etag'));

    const updateKey = randomUUID();
    const edited = await api.client.patch(`/web/tasks/${first.body.id}`, { title: 'Edited' }, withKey(updateKey));
    const editedAgain = await api.client.patch(`/web/tasks/${first.body.id}`, { title: 'Edited' }, withKey(updateKey));
    expect(edited.headers.get('etag')).not.toBe(first.headers.get('etag'));
    expect(editedAgain.headers.get('etag')).toBe(edited.headers.get('etag'));
  });

  it('replays an added comment, and adds it once', async () => {
    const { id } = await createTask();
    const key = randomUUID();
    const first = await api.client.post(`/web/tasks/${id}/comments`, { content: 'Said once' }, withKey(key));
    const again = await api.client.post(`/web/tasks/${id}/comments`, { content: 'Said once' }, withKey(key));
    expect(first.status).toBe(201);
    expect([again.status, again.headers.get('idempotent-replayed'), again.text]).toEqual([201, 'true', first.text]);
    expect(await db().comment.count({ where: { taskId: id } })).toBe(1);
  });

  it('replays a multipart upload, and keeps one attachment and one stored file', async () => {
    const { id } = await createTask();
    const key = randomUUID();
    const storedFiles = async () => {
      await settleStorage();
      return fs.readdirSync(env().dataDir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length;
    };
    const first = await api.client.call('POST', `/web/tasks/${id}/attachments`, { body: form('hello', 'a.txt'), headers: withKey(key) });
    const filesAfterFirst = await storedFiles();
    // A new FormData: another multipart boundary, the same request.
    const again = await api.client.call('POST', `/web/tasks/${id}/attachments`, { body: form('hello', 'a.txt'), headers: withKey(key) });
    expect(first.status).toBe(201);
    expect([again.status, again.headers.get('idempotent-replayed'), again.text]).toEqual([201, 'true', first.text]);
    expect(await db().attachment.count({ where: { taskId: id } })).toBe(1);
    expect(await storedFiles()).toBe(filesAfterFirst);
  });

  it('refuses an upload of other bytes under a used key with 422', async () => {
    const { id } = await createTask();
    const key = randomUUID();
    await api.client.call('POST', `/web/tasks/${id}/attachments`, { body: form('hello', 'a.txt'), headers: withKey(key) });
    const other = await api.client.call('POST', `/web/tasks/${id}/attachments`, { body: form('HELLO', 'a.txt'), headers: withKey(key) });
    expect([other.status, other.body]).toEqual([422, REUSED]);
    expect(await db().attachment.count({ where: { taskId: id } })).toBe(1);
  });

  it('replays an update without applying it again', async () => {
    const { id } = await createTask();
    const key = randomUUID();
    const first = await api.client.patch(`/web/tasks/${id}`, { title: 'First edit' }, withKey(key));
    await api.client.patch(`/web/tasks/${id}`, { title: 'Later edit' });
    const again = await api.client.patch(`/web/tasks/${id}`, { title: 'First edit' }, withKey(key));
    expect(first.status).toBe(200);
    expect([again.status, again.headers.get('idempotent-replayed'), again.text]).toEqual([200, 'true', first.text]);
    expect((await api.client.get(`/web/tasks/${id}`)).body.title).toBe('Later edit');
  });

  it('stores no 412: the same key, sent again with the ETag the task has now, updates it', async () => {
    const { id } = await createTask();
    const key = randomUUID();
    const stale = await api.client.patch(`/web/tasks/${id}`, { title: 'Checked edit' }, { ...withKey(key), 'if-match': '"stale"' });
    const { headers } = await api.client.get(`/web/tasks/${id}`);

    const retried = await api.client.patch(
      `/web/tasks/${id}`,
      { title: 'Checked edit' },
      { ...withKey(key), 'if-match': headers.get('etag')! },
    );

    expect(stale.status).toBe(412);
    expect([retried.status, retried.headers.get('idempotent-replayed'), retried.body.title]).toEqual([200, null, 'Checked edit']);
  });

  it('refuses the same key with another body with 422, creating nothing', async () => {
    const key = randomUUID();
    await api.client.post('/web/tasks', { title: `First ${key}` }, withKey(key));
    const other = await api.client.post('/web/tasks', { title: `Second ${key}` }, withKey(key));
    expect([other.status, other.body]).toEqual([422, REUSED]);
    expect(await db().task.count({ where: { title: `Second ${key}` } })).toBe(0);
  });

  it('refuses the same key on another path with 422', async () => {
    const { id } = await createTask();
    const key = randomUUID();
    await api.client.post(`/web/tasks/${id}/comments`, { content: 'Here' }, withKey(key));
    const other = await api.client.post(`/web/tasks/${(await createTask()).id}/comments`, { content: 'Here' }, withKey(key));
    expect([other.status, other.body]).toEqual([422, REUSED]);
  });

  it.each([
    ['that is empty', ''],
    ['of 256 characters', 'k'.repeat(256)],
    ['with a non-ASCII character', 'clé-1'],
    ['with a tab, a control character', 'key\twith-tab'],
  ])('refuses a key %s with 400 naming the header, creating nothing', async (_, value) => {
    const title = `Bad key ${randomUUID()}`;
    const response = await api.client.post('/web/tasks', { title }, withKey(value));
    expect([response.status, response.body]).toEqual([400, INVALID_KEY]);
    expect(await db().task.count({ where: { title } })).toBe(0);
  });

  it('refuses a key with any other control character before the request reaches the API: 400, creating nothing', async () => {
    const title = `Control ${randomUUID()}`;
    const body = JSON.stringify({ title });
    const head = [
      'POST /v1/public/web/tasks HTTP/1.1',
      'Host: 127.0.0.1',
      `Authorization: Bearer ${api.key}`,
      'Content-Type: application/json',
      `Content-Length: ${body.length}`,
      'Idempotency-Key: key\x01with-control',
      'Connection: close',
    ].join('\r\n');
    const response = await rawRequest(api.server.baseUrl, `${head}\r\n\r\n`, body);
    expect([response.status, JSON.parse(response.body).statusCode]).toEqual([400, 400]);
    expect(await db().task.count({ where: { title } })).toBe(0);
  });

  it('accepts a key of 255 printable characters', async () => {
    const response = await api.client.post('/web/tasks', { title: 'Long key' }, withKey(`~ "${randomUUID()}" `.padEnd(255, '!')));
    expect(response.status).toBe(201);
  });

  it('processes exactly one of ten identical creates sent at once', async () => {
    const key = randomUUID();
    const title = `Parallel ${key}`;
    const answers = await Promise.all(Array.from({ length: 10 }, () => api.client.post('/web/tasks', { title }, withKey(key))));
    const created = answers.filter((answer) => answer.status === 201);
    const waiting = answers.filter((answer) => answer.status === 409);
    expect(created.length + waiting.length).toBe(10);
    expect(created.length).toBeGreaterThan(0);
    expect(new Set(created.map((answer) => answer.text)).size).toBe(1);
    for (const answer of waiting) expect([answer.body, answer.headers.get('retry-after')]).toEqual([IN_PROGRESS, '1']);
    expect(await db().task.count({ where: { title } })).toBe(1);
  });

  it('answers 409 with Retry-After: 1 while the first request with the key is being processed', async () => {
    const { id: apiKeyId, client } = await ownKey();
    const key = randomUUID();
    const body = { title: `In progress ${key}` };
    // The claim the first request holds while it runs, as it stands in the database.
    await storeRecord(apiKeyId, key, body, { lockedUntil: new Date(Date.now() + 60_000) });
    const response = await client.post('/web/tasks', body, withKey(key));
    expect([response.status, response.body, response.headers.get('retry-after')]).toEqual([409, IN_PROGRESS, '1']);
    expect(await db().task.count({ where: { title: body.title } })).toBe(0);
  });

  // The embedded database runs one transaction at a time: a lock held by the test would stop the server's claim too.
  describe.runIf(inject('testDatabase').kind === 'postgres')('while the first request waits on a lock', () => {
    /** Sends a create with `key` while the row every create locks for its task number is held, until `then` is done. */
    async function whileHeld<T>(key: string, body: object, then: () => Promise<T>) {
      const locker = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await locker.connect();
      try {
        await locker.query('BEGIN');
        await locker.query('SELECT 1 FROM project WHERE id = $1 FOR UPDATE', [api.fixture.projects.web.id]);
        const first = api.client.post('/web/tasks', body, withKey(key));
        while ((await db().idempotencyRecord.count({ where: { key } })) === 0) await new Promise((resolve) => setTimeout(resolve, 20));
        const result = await then();
        await locker.query('COMMIT');
        return { first: await first, result };
      } finally {
        await locker.end();
      }
    }

    it('answers 409 to a retry, then replays the first answer', async () => {
      const key = randomUUID();
      const body = { title: `Held ${key}` };
      const { first, result: retry } = await whileHeld(key, body, () => api.client.post('/web/tasks', body, withKey(key)));
      expect([retry.status, retry.body, retry.headers.get('retry-after')]).toEqual([409, IN_PROGRESS, '1']);
      const again = await api.client.post('/web/tasks', body, withKey(key));
      expect([first.status, again.status, again.text]).toEqual([201, 201, first.text]);
    });

    it('rolls the change back when its claim was taken over meanwhile, so it is not made twice', async () => {
      const key = randomUUID();
      const body = { title: `Overtaken ${key}` };
      // What a retry does once the first request's lease has run out.
      const { first } = await whileHeld(key, body, () =>
        db().idempotencyRecord.updateMany({ where: { key }, data: { claimToken: randomUUID() } }),
      );
      expect([first.status, first.body]).toEqual([409, IN_PROGRESS]);
      expect(await db().task.count({ where: { title: body.title } })).toBe(0);
    });
  });

  it('processes a retry once the claim of a request that never finished has run out', async () => {
    const { id: apiKeyId, client } = await ownKey();
    const key = randomUUID();
    const body = { title: `Crashed ${key}` };
    await storeRecord(apiKeyId, key, body, { lockedUntil: new Date(Date.now() - 1_000) });
    const response = await client.post('/web/tasks', body, withKey(key));
    expect(response.status).toBe(201);
    expect(await db().task.count({ where: { title: body.title } })).toBe(1);
  });

  it('processes the key again once its record is older than 24 hours', async () => {
    const { id: apiKeyId, client } = await ownKey();
    const key = randomUUID();
    await storeRecord(apiKeyId, key, { title: 'Yesterday' }, { status: 201, expiresAt: new Date(Date.now() - 1_000) });
    const response = await client.post('/web/tasks', { title: `Today ${key}` }, withKey(key));
    expect([response.status, response.headers.get('idempotent-replayed')]).toEqual([201, null]);
  });

  it('answers 403 to a replay once the API key has lost the scope', async () => {
    const { id: apiKeyId, client } = await ownKey();
    const key = randomUUID();
    const first = await client.post('/web/tasks', { title: 'Scoped' }, withKey(key));
    expect(first.status).toBe(201);
    await db().apiKey.update({ where: { id: apiKeyId }, data: { scopes: ['task:read'] } });
    const again = await client.post('/web/tasks', { title: 'Scoped' }, withKey(key));
    expect([again.status, again.body]).toEqual([403, { statusCode: 403, message: 'Missing required scope: task:create' }]);
  });

  it('counts a replay against the rate limit', async () => {
    await awayFromWindowEdge();
    const { client } = await ownKey();
    const key = randomUUID();
    const first = await client.post('/web/tasks', { title: 'Counted' }, withKey(key));
    const again = await client.post('/web/tasks', { title: 'Counted' }, withKey(key));
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(Number(again.headers.get('x-ratelimit-remaining'))).toBe(Number(first.headers.get('x-ratelimit-remaining')) - 1);
  });

  it('replays a stored 400 as the same 400', async () => {
    const key = randomUUID();
    const first = await api.client.post('/web/tasks', { title: '' }, withKey(key));
    const again = await api.client.post('/web/tasks', { title: '' }, withKey(key));
    expect(first.body).toEqual({ statusCode: 400, message: 'title: must be 1 to 500 characters' });
    expect([again.status, again.headers.get('idempotent-replayed'), again.text]).toEqual([400, 'true', first.text]);
  });

  it("keeps two API keys' answers under the same Idempotency-Key apart", async () => {
    const key = randomUUID();
    const one = await (await ownKey()).client.post('/web/tasks', { title: 'Same key' }, withKey(key));
    const other = await (await ownKey()).client.post('/web/tasks', { title: 'Same key' }, withKey(key));
    expect([one.status, other.status, other.headers.get('idempotent-replayed')]).toEqual([201, 201, null]);
    expect(other.body.id).not.toBe(one.body.id);
  });

  it('ignores the header on a DELETE, which is idempotent already', async () => {
    const { id } = await createTask();
    const response = await api.client.delete(`/web/tasks/${id}`, withKey(''));
    expect(response.status).toBe(200);
  });
});

describe('expired Idempotency-Key records', () => {
  it('are deleted by the sweep, and live ones kept', async () => {
    const { id: apiKeyId } = await ownKey();
    const record = (key: string, expiresAt: Date) => ({ apiKeyId, key, fingerprint: '0'.repeat(64), claimToken: randomUUID(), expiresAt });
    await db().idempotencyRecord.createMany({
      data: [
        record('old-1', new Date(Date.now() - 1_000)),
        record('old-2', new Date(Date.now() - 2_000)),
        record('live', new Date(Date.now() + 60_000)),
      ],
    });
    expect((await sweepExpiredRecords(db())).deleted).toBeGreaterThanOrEqual(2);
    expect((await db().idempotencyRecord.findMany({ where: { apiKeyId }, select: { key: true } })).map((r) => r.key)).toEqual(['live']);
  });
});

describe('Idempotency-Key claims', () => {
  it('are given back after an answer a retry might change, so that the next request is processed', async () => {
    const { id } = await ownKey();
    const fingerprint = requestFingerprint('POST', '/web/tasks', { title: 'Failed' });
    const first = await claimKey(db(), id, 'failed-once', fingerprint);
    if (first.kind !== 'claimed') throw new Error(`expected a claim, got ${first.kind}`);
    expect((await claimKey(db(), id, 'failed-once', fingerprint)).kind).toBe('in_progress');
    await releaseClaim(db(), first.claim);
    expect((await claimKey(db(), id, 'failed-once', fingerprint)).kind).toBe('claimed');
  });
});
