import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../server/db/client';
import { useApi } from '../support/api';

/** Every value the API accepts is stored as sent; one the database could not keep is a 400 naming the field. */
const api = useApi();

const DATE_RANGE = 'dueDate: must be from 0001-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z in UTC';
const LONE_SURROGATE = 'must not contain a lone surrogate (U+D800 to U+DFFF without its pair)';

const taskCount = () => db().task.count({ where: { projectId: api.fixture.projects.web.id } });
let taskId: string;

beforeAll(async () => {
  const task = await api.client.post('/web/tasks', { title: 'Target', dueDate: '2027-01-31T17:00:00Z' });
  expect(task.status).toBe(201);
  taskId = task.body.id;
});

describe('due dates', () => {
  it.each([
    ['year 0', '0000-01-01T00:00:00Z'],
    ['year 1 written with +14:00, which is year 0 in UTC', '0001-01-01T00:00:00+14:00'],
    ['year 9999 written with -00:01, which is year 10000 in UTC', '9999-12-31T23:59:59.999-00:01'],
  ])('refuses %s with 400 naming the range, storing nothing', async (_, dueDate) => {
    const before = await taskCount();
    const response = await api.client.post('/web/tasks', { title: 'Out of range', dueDate });
    expect(response.body).toEqual({ statusCode: 400, message: DATE_RANGE });
    expect(await taskCount()).toBe(before);
  });

  it.each([
    ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z'],
    ['0001-01-01T00:00:00-14:00', '0001-01-01T14:00:00.000Z'],
    ['9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z'],
    ['9999-12-31T23:59:59.999+14:00', '9999-12-31T09:59:59.999Z'],
  ])('stores %s, at the edge of the range, and reads it back as %s', async (dueDate, stored) => {
    const created = await api.client.post('/web/tasks', { title: 'At the edge', dueDate });
    expect(created.body.dueDate).toBe(stored);
    const read = await api.client.get(`/web/tasks/${created.body.id}`);
    expect(read.body.dueDate).toBe(stored);
  });

  it('PATCH refuses a date outside the range and leaves the task as it was', async () => {
    const response = await api.client.patch(`/web/tasks/${taskId}`, { dueDate: '0000-06-01T00:00:00Z' });
    expect(response.body).toEqual({ statusCode: 400, message: DATE_RANGE });
    expect((await api.client.get(`/web/tasks/${taskId}`)).body.dueDate).toBe('2027-01-31T17:00:00.000Z');
  });
});

describe('lone surrogates in text', () => {
  it.each([
    ['title', { title: 'a\ud800b' }],
    ['title', { title: '\udc00' }],
    ['description', { title: 'ok', description: 'half of 📄 is \ud83d' }],
  ])('POST /tasks refuses one in %s with 400 naming the field, storing nothing', async (field, body) => {
    const before = await taskCount();
    const response = await api.client.post('/web/tasks', body);
    expect(response.body).toEqual({ statusCode: 400, message: `${field}: ${LONE_SURROGATE}` });
    expect(await taskCount()).toBe(before);
  });

  it('PATCH refuses one in the title and leaves the task as it was', async () => {
    const response = await api.client.patch(`/web/tasks/${taskId}`, { title: 'x\udfff' });
    expect(response.body).toEqual({ statusCode: 400, message: `title: ${LONE_SURROGATE}` });
    expect((await api.client.get(`/web/tasks/${taskId}`)).body.title).toBe('Target');
  });

  it('POST /comments refuses one in the content with 400 naming the field', async () => {
    const response = await api.client.post(`/web/tasks/${taskId}/comments`, { content: 'note \ud800' });
    expect(response.body).toEqual({ statusCode: 400, message: `content: ${LONE_SURROGATE}` });
    expect((await api.client.get(`/web/tasks/${taskId}/comments`)).body).toEqual([]);
  });

  it('keeps surrogate pairs (characters beyond U+FFFF) exactly as sent', async () => {
    const created = await api.client.post('/web/tasks', { title: '📄 report', description: '𝄞 and 🙂' });
    expect(created.status).toBe(201);
    const read = await api.client.get(`/web/tasks/${created.body.id}`);
    expect([read.body.title, read.body.description]).toEqual(['📄 report', '𝄞 and 🙂']);
  });
});

describe('page numbers', () => {
  const PAGE = 'page: must be a whole number from 1 to 2147483647';

  it.each(['2147483648', '9223372036854775808', '1e400', '-0', '-1', '1e10'])('refuses page=%s with 400 naming the range', async (page) => {
    const response = await api.client.get(`/web/tasks?page=${page}&limit=100`);
    expect(response.body).toEqual({ statusCode: 400, message: PAGE });
  });

  it('answers the last possible page, 2147483647, with no tasks', async () => {
    const response = await api.client.get('/web/tasks?page=2147483647&limit=100');
    expect(response.status).toBe(200);
    expect(response.body.tasks).toEqual([]);
    expect(response.body.meta).toMatchObject({ page: 2147483647, limit: 100, hasMore: false });
  });

  it('reads page=1.0 and limit=2.0 as the whole numbers 1 and 2', async () => {
    const response = await api.client.get('/web/tasks?page=1.0&limit=2.0');
    expect(response.status).toBe(200);
    expect(response.body.meta).toMatchObject({ page: 1, limit: 2 });
    expect(response.body.tasks).toHaveLength(2);
  });
});
