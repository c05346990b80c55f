import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../support/client';
import { useApi } from '../support/api';

const api = useApi();
let taskId: string;

beforeAll(async () => {
  taskId = (await api.client.post('/web/tasks', { title: 'Target' })).body.id;
});

const upload = () => {
  const form = new FormData();
  form.append('file', new Blob(['hello'], { type: 'text/plain' }), 'hello.txt');
  return form;
};

type Answer = Awaited<ReturnType<ReturnType<typeof apiClient>['call']>>;

const ANSWERS: [string, number, () => Promise<Answer>][] = [
  ['a list', 200, () => api.client.get('/web/tasks')],
  ['a created task', 201, () => api.client.post('/web/tasks', { title: 'New' })],
  ['an uploaded attachment', 201, () => api.client.post(`/web/tasks/${taskId}/attachments`, upload())],
  ['an invalid body', 400, () => api.client.post('/web/tasks', { title: '' })],
  ['a missing key', 401, () => apiClient(api.server.baseUrl).get('/web/tasks')],
  ['an unknown task', 404, () => api.client.get('/web/tasks/WEB-424242')],
  ['an unknown path', 404, () => api.client.get('/web/nothing-here')],
  ['an unknown path without a key', 404, () => apiClient(api.server.baseUrl).get('/web/nothing-here')],
  ['an upload that is not multipart', 415, () => api.client.post(`/web/tasks/${taskId}/attachments`, { file: 'x' })],
];

describe('every API answer', () => {
  it.each(ANSWERS)('%s (%i) is not content-sniffed nor cached', async (_, status, send) => {
    const response = await send();
    expect(response.status).toBe(status);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toBe('no-store');
  });
});
