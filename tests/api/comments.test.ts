import { describe, expect, it } from 'vitest';
import { db } from '../../server/db/client';
import { useApi } from '../support/api';
import { errorOf } from '../support/client';

const api = useApi();

async function task() {
  const response = await api.client.post('/web/tasks', { title: 'Discussed' });
  expect(response.status).toBe(201);
  return response.body;
}

describe('POST /{projectSlug}/tasks/{taskId}/comments', () => {
  it("adds a comment attributed to the key's name and answers 201", async () => {
    const { id } = await task();
    const { status, body } = await api.client.post(`/web/tasks/${id}/comments`, { content: 'First!\nSecond line' });
    expect(status).toBe(201);
    expect(body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      content: 'First!\nSecond line',
      authorName: 'CI bot',
      createdAt: expect.any(String),
      updatedAt: body.createdAt,
    });
  });

  it("keeps the key's name as it was when the comment was posted", async () => {
    const { id } = await task();
    const key = await api.fixture.key({ name: 'Old name' });
    const posted = await api.clientWith(key).post(`/web/tasks/${id}/comments`, { content: 'hello' });
    await db().apiKey.updateMany({ where: { name: 'Old name' }, data: { name: 'New name' } });
    const { body } = await api.client.get(`/web/tasks/${id}/comments`);
    expect(body.find((c) => c.id === posted.body.id)?.authorName).toBe('Old name');
  });

  it('accepts 10000 characters', async () => {
    const { id } = await task();
    const { status } = await api.client.post(`/web/tasks/${id}/comments`, { content: 'x'.repeat(10_000) });
    expect(status).toBe(201);
  });

  it.each([
    [{}, 'content: is required'],
    [{ content: '' }, 'content: must be 1 to 10000 characters'],
    [{ content: 'x'.repeat(10_001) }, 'content: must be 1 to 10000 characters'],
    [{ content: ' \n ' }, 'content: must contain a non-space character'],
    [{ content: 7 }, 'content: must be a string'],
    [{ content: 'hi', author: 'me' }, 'Unknown field: author'],
  ])('refuses %j with 400 naming the field, adding nothing', async (body, message) => {
    const { id } = await task();
    const response = await api.client.post(`/web/tasks/${id}/comments`, body);
    expect(response.body).toEqual({ statusCode: 400, message });
    expect(await db().comment.count({ where: { taskId: id } })).toBe(0);
  });

  it('answers 404 for an unknown task', async () => {
    const response = await api.client.post('/web/tasks/WEB-424242/comments', { content: 'hello?' });
    expect(response.body).toEqual({ statusCode: 404, message: 'Task not found' });
  });
});

describe('GET /{projectSlug}/tasks/{taskId}/comments', () => {
  it('lists comments oldest first', async () => {
    const { id, externalId } = await task();
    for (const content of ['one', 'two', 'three']) await api.client.post(`/web/tasks/${id}/comments`, { content });
    const { status, body } = await api.client.get(`/web/tasks/${externalId}/comments`);
    expect(status).toBe(200);
    expect(body.map((c) => c.content)).toEqual(['one', 'two', 'three']);
  });

  it('shows null as the author of comments posted by members', async () => {
    const { id } = await task();
    await db().comment.create({ data: { taskId: id, content: 'from the app', authorUserId: api.fixture.members.ada.id } });
    const { body } = await api.client.get(`/web/tasks/${id}/comments`);
    expect(body).toEqual([expect.objectContaining({ content: 'from the app', authorName: null })]);
  });

  it('answers an empty list for a task without comments', async () => {
    const { id } = await task();
    expect((await api.client.get(`/web/tasks/${id}/comments`)).body).toEqual([]);
  });

  it('answers 404 for an unknown task', async () => {
    const response = await api.client.get('/web/tasks/00000000-0000-4000-8000-000000000000/comments');
    expect(response.body).toEqual({ statusCode: 404, message: 'Task not found' });
  });
});

describe('comments per task', () => {
  /** Fills a task's comments to `count` in one statement, as if posted long ago. */
  async function commentsOn(taskId: string, count: number) {
    await db().$executeRaw`
      INSERT INTO comment (id, task_id, content, author_name, created_at, updated_at)
      SELECT gen_random_uuid(), ${taskId}::uuid, 'earlier ' || n, 'CI bot', now(), now() FROM generate_series(1, ${count}::int) AS n`;
  }

  it('a task takes 1000 comments, and the next answers 409 naming the limit', async () => {
    const { id, externalId } = await task();
    await commentsOn(id, 999);

    expect((await api.client.post(`/web/tasks/${externalId}/comments`, { content: 'The thousandth' })).status).toBe(201);
    const refused = await api.client.post(`/web/tasks/${externalId}/comments`, { content: 'One too many' });

    expect(refused.status).toBe(409);
    expect(errorOf(refused)).toEqual({ statusCode: 409, message: 'Task already has 1000 comments, the most a task may have' });
    expect(refused.headers.get('retry-after')).toBeNull();
    expect((await api.client.get(`/web/tasks/${externalId}/comments`)).body).toHaveLength(1000);
  });
});
