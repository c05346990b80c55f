import { describe, expect, it } from 'vitest';
import { procedureMetas } from '../../server/api/operation';
import { publicRouter } from '../../server/api/router';
import { findRoute } from '../../server/api/routes';
import { useApi } from '../support/api';

const api = useApi();

describe('the route table', () => {
  it('finds every operation at its own path: no {param} route registered earlier captures a fixed path', () => {
    for (const [procedure, meta] of procedureMetas(publicRouter)) {
      const path = meta.openapi!.path.replace(/\{[^}]+\}/g, 'x-1');
      const found = findRoute(meta.openapi!.method, path);

      expect('procedure' in found && found.procedure, `${meta.openapi!.method} ${meta.openapi!.path}`).toBe(procedure);
    }
  });

  it('GET /tasks/deleted answers the deleted-tasks list, not a task named "deleted"', async () => {
    const response = await api.client.get('/web/tasks/deleted');

    expect(response.status).toBe(200);
    expect(response.body).toEqual({ deleted: [], meta: { hasMore: false, nextCursor: null } });
  });

  it('PATCH and DELETE on /tasks/deleted name a task "deleted", which no task is: 404', async () => {
    const patched = await api.client.patch('/web/tasks/deleted', { title: 'x' });
    const deleted = await api.client.delete('/web/tasks/deleted');

    expect(patched.body).toEqual({ statusCode: 404, message: 'Task not found' });
    expect(deleted.body).toEqual({ statusCode: 404, message: 'Task not found' });
  });
});
