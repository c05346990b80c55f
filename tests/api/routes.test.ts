import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isBoundedRoute } from '../../server/http/exchange';
import { procedureMetas } from '../../server/api/operation';
import { publicRouter } from '../../server/api/router';
import { findRoute } from '../../server/api/routes';
import { useApi } from '../support/api';
import { GET as routeFileGet } from '../../app/v1/public/[...path]/route';

const api = useApi();
const root = path.resolve(import.meta.dirname, '../..');

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

  it('PATCH and DELETE on /tasks/deleted: a fixed segment wins over {taskId}, so 405 with Allow: GET', async () => {
    const patched = await api.client.patch('/web/tasks/deleted', { title: 'x' });
    const deleted = await api.client.delete('/web/tasks/deleted');

    for (const answer of [patched, deleted]) {
      expect(answer.status).toBe(405);
      expect(answer.headers.get('allow')).toMatch(/^GET\b/);
    }
  });
});

describe('request targets', () => {
  it('over 8 KiB answer 414 from the route file itself, as on Vercel where no edge of ours stands in front', async () => {
    const response = await routeFileGet(new Request(`http://localhost/v1/public/web/tasks?search=${'a'.repeat(9000)}`));

    expect(response.status).toBe(414);
    expect(await response.json()).toEqual({ statusCode: 414, message: 'Request target longer than 8192 characters' });
  });
});

describe('route files', () => {
  it('read every body and write every answer through the bounded exchange: no handler of app/**/route.ts is built another way', async () => {
    const files = (await fs.readdir(path.join(root, 'app'), { recursive: true }))
      .filter((file) => path.basename(file) === 'route.ts')
      .map((file) => path.join('app', file));
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const module = (await import(path.join(root, file))) as Record<string, unknown>;
      const handlers = Object.entries(module).filter(([name]) => /^(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS)$/.test(name));
      expect(handlers.length, file).toBeGreaterThan(0);
      for (const [method, handler] of handlers) expect(isBoundedRoute(handler), `${method} of ${file}`).toBe(true);
    }
  });
});
