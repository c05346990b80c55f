import { afterAll, describe, expect, it } from 'vitest';
import { db } from '../../server/db/client';
import { settleStorage } from '../../server/storage/storage';
import { useApi } from '../support/api';

const api = useApi();
const CHANGED = { statusCode: 412, message: 'Task was changed since you read it (ETag mismatch)' };

afterAll(async () => {
  await settleStorage();
});

async function create(body: Record<string, unknown> = { title: 'Conditional' }) {
  const response = await api.client.post('/web/tasks', body);
  expect(response.status).toBe(201);
  return { task: response.body, etag: response.headers.get('etag')! };
}

const etagOf = async (taskId: string) => (await api.client.get(`/web/tasks/${taskId}`)).headers.get('etag');

describe('ETag', () => {
  it('create, get and an empty PATCH of an unchanged task carry the same strong ETag', async () => {
    const { task, etag } = await create();

    const read = await api.client.get(`/web/tasks/${task.externalId}`);
    const patched = await api.client.patch(`/web/tasks/${task.id}`, {});

    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(read.headers.get('etag')).toBe(etag);
    expect(patched.headers.get('etag')).toBe(etag);
  });

  it('a PATCH answers with the new ETag, the one a later GET gives', async () => {
    const { task, etag } = await create();

    const patched = await api.client.patch(`/web/tasks/${task.id}`, { priority: 'high' });

    expect(patched.headers.get('etag')).not.toBe(etag);
    expect(await etagOf(task.id)).toBe(patched.headers.get('etag'));
  });

  it('changes when an attachment is added to the task', async () => {
    const { task, etag } = await create();
    const form = new FormData();
    form.append('file', new Blob(['notes']), 'notes.txt');

    expect((await api.client.post(`/web/tasks/${task.id}/attachments`, form)).status).toBe(201);

    expect(await etagOf(task.id)).not.toBe(etag);
  });

  it("changes when a label of the task is renamed, though the task's row did not change", async () => {
    const { task, etag } = await create({ title: 'Labelled', labelIds: [api.fixture.labels.design.id] });

    await db().label.update({ where: { id: api.fixture.labels.design.id }, data: { name: 'visual design' } });

    expect(await etagOf(task.id)).not.toBe(etag);
  });

  it('a comment, which the task does not show, leaves the ETag as it was', async () => {
    const { task, etag } = await create();

    expect((await api.client.post(`/web/tasks/${task.id}/comments`, { content: 'Looks good' })).status).toBe(201);

    expect(await etagOf(task.id)).toBe(etag);
  });

  it('lists carry no ETag', async () => {
    await create();
    expect((await api.client.get('/web/tasks')).headers.get('etag')).toBeNull();
  });
});

describe('If-None-Match on GET', () => {
  it('answers 304 without a body when the task still has that ETag, with the ETag and rate-limit headers', async () => {
    const { task, etag } = await create();

    const response = await api.client.get(`/web/tasks/${task.id}`, { 'if-none-match': etag });

    expect(response.status).toBe(304);
    expect(response.text).toBe('');
    expect(response.headers.get('etag')).toBe(etag);
    expect(response.headers.get('x-ratelimit-limit')).not.toBeNull();
  });

  it('a 304 still counts against the rate limit', async () => {
    const { task, etag } = await create();
    const before = Number((await api.client.get('/web/statuses')).headers.get('x-ratelimit-remaining'));

    await api.client.get(`/web/tasks/${task.id}`, { 'if-none-match': etag });
    const after = Number((await api.client.get('/web/statuses')).headers.get('x-ratelimit-remaining'));

    expect(after).toBe(before - 2);
  });

  it('compares weakly: W/ with the same tag, or one of a list, is a match', async () => {
    const { task, etag } = await create();

    const weak = await api.client.get(`/web/tasks/${task.id}`, { 'if-none-match': `W/${etag}` });
    const listed = await api.client.get(`/web/tasks/${task.id}`, { 'if-none-match': `"stale", ${etag}` });

    expect([weak.status, listed.status]).toEqual([304, 304]);
  });

  it('answers 200 with the task when the ETag is another', async () => {
    const { task } = await create();

    const response = await api.client.get(`/web/tasks/${task.id}`, { 'if-none-match': '"stale"' });

    expect(response.status).toBe(200);
    expect(response.body.id).toBe(task.id);
  });

  it('still runs the gate: a bad key is 401 and an unknown task 404', async () => {
    const { task, etag } = await create();

    const anonymous = await api.clientWith('').get(`/web/tasks/${task.id}`, { 'if-none-match': etag });
    const missing = await api.client.get('/web/tasks/WEB-999999', { 'if-none-match': '*' });

    expect(anonymous.status).toBe(401);
    expect(missing.status).toBe(404);
  });
});

describe('If-Match on PATCH and DELETE', () => {
  it('a PATCH with the current ETag applies', async () => {
    const { task, etag } = await create();

    const response = await api.client.patch(`/web/tasks/${task.id}`, { title: 'Renamed' }, { 'if-match': etag });

    expect(response.status).toBe(200);
    expect(response.body.title).toBe('Renamed');
  });

  it('a PATCH with a stale ETag answers 412 and changes nothing', async () => {
    const { task, etag } = await create();
    await api.client.patch(`/web/tasks/${task.id}`, { priority: 'low' });

    const response = await api.client.patch(`/web/tasks/${task.id}`, { title: 'Overwrite' }, { 'if-match': etag });

    expect(response.status).toBe(412);
    expect(response.body).toEqual(CHANGED);
    const now = (await api.client.get(`/web/tasks/${task.id}`)).body;
    expect([now.title, now.priority]).toEqual(['Conditional', 'low']);
  });

  it('an empty PATCH with a stale ETag answers 412 too', async () => {
    const { task } = await create();

    const response = await api.client.patch(`/web/tasks/${task.id}`, {}, { 'if-match': '"stale"' });

    expect(response.status).toBe(412);
  });

  it('a DELETE with a stale ETag answers 412 and the task stays', async () => {
    const { task, etag } = await create();
    await api.client.patch(`/web/tasks/${task.id}`, { priority: 'urgent' });

    const response = await api.client.delete(`/web/tasks/${task.id}`, { 'if-match': etag });

    expect(response.status).toBe(412);
    expect(response.body).toEqual(CHANGED);
    expect((await api.client.get(`/web/tasks/${task.id}`)).status).toBe(200);
  });

  it('a DELETE with the current ETag deletes', async () => {
    const { task, etag } = await create();

    expect((await api.client.delete(`/web/tasks/${task.id}`, { 'if-match': etag })).status).toBe(200);
    expect((await api.client.get(`/web/tasks/${task.id}`)).status).toBe(404);
  });

  it('If-Match: * matches any existing task, and an unknown task is still 404', async () => {
    const { task } = await create();

    const patched = await api.client.patch(`/web/tasks/${task.id}`, { title: 'Any' }, { 'if-match': '*' });
    const missing = await api.client.patch('/web/tasks/WEB-999999', { title: 'Any' }, { 'if-match': '*' });

    expect(patched.status).toBe(200);
    expect(missing.status).toBe(404);
  });

  it('compares strongly: the same tag marked weak does not match', async () => {
    const { task, etag } = await create();

    const response = await api.client.patch(`/web/tasks/${task.id}`, { title: 'Weak' }, { 'if-match': `W/${etag}` });

    expect(response.status).toBe(412);
  });

  it('matches when the current ETag is one of a list', async () => {
    const { task, etag } = await create();

    const response = await api.client.patch(`/web/tasks/${task.id}`, { title: 'Listed' }, { 'if-match': `"other", ${etag}` });

    expect(response.status).toBe(200);
  });

  it('of two parallel PATCHes sent with one ETag, exactly one applies and the other answers 412', async () => {
    for (let round = 0; round < 5; round++) {
      const { task, etag } = await create();

      const answers = await Promise.all(
        ['First', 'Second'].map((title) => api.client.patch(`/web/tasks/${task.id}`, { title }, { 'if-match': etag })),
      );

      expect(answers.map((r) => r.status).sort()).toEqual([200, 412]);
      const winner = answers.find((r) => r.status === 200)!;
      expect((await api.client.get(`/web/tasks/${task.id}`)).body.title).toBe(winner.body.title);
    }
  });

  it('of a PATCH and a DELETE sent with one ETag, exactly one applies', async () => {
    const { task, etag } = await create();

    const [patched, deleted] = await Promise.all([
      api.client.patch(`/web/tasks/${task.id}`, { title: 'Kept?' }, { 'if-match': etag }),
      api.client.delete(`/web/tasks/${task.id}`, { 'if-match': etag }),
    ]);

    // Either the PATCH won and the DELETE found the task changed, or the DELETE won and the PATCH found no task.
    expect([
      [200, 412],
      [404, 200],
    ]).toContainEqual([patched.status, deleted.status]);
  });
});
