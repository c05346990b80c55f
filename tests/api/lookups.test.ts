import { describe, expect, it } from 'vitest';
import { db } from '../../server/db/client';
import { useApi } from '../support/api';

const api = useApi();

describe('GET /{projectSlug}/statuses', () => {
  it("lists the project's statuses in display order with their fields", async () => {
    const { status, body } = await api.client.get('/web/statuses');
    expect(status).toBe(200);
    expect(body).toEqual([
      { id: api.fixture.statuses.webTodo.id, name: 'To Do', color: '#94a3b8', category: 'todo', order: 0 },
      { id: api.fixture.statuses.webInProgress.id, name: 'In Progress', color: '#3b82f6', category: 'in_progress', order: 1 },
      { id: api.fixture.statuses.webDone.id, name: 'Done', color: '#22c55e', category: 'done', order: 2 },
      { id: api.fixture.statuses.webReview.id, name: 'In Review', color: '#a855f7', category: 'in_progress', order: 3 },
    ]);
  });

  it('reports a status without a color as null', async () => {
    await db().status.update({ where: { id: api.fixture.statuses.apiTodo.id }, data: { color: null } });
    const { body } = await api.client.get('/api/statuses');
    expect(body[0]).toMatchObject({ name: 'To Do', color: null });
  });
});

describe('GET /{projectSlug}/labels', () => {
  it('lists workspace-wide labels plus the project-scoped labels assigned to the project', async () => {
    const { status, body } = await api.client.get('/web/labels');
    expect(status).toBe(200);
    expect(body).toEqual([
      { id: api.fixture.labels.bug.id, name: 'bug', color: '#ef4444' },
      { id: api.fixture.labels.design.id, name: 'design', color: '#ec4899' },
    ]);
  });

  it('leaves out labels scoped to other projects', async () => {
    const { body } = await api.client.get('/api/labels');
    expect(body.map((label: { name: string }) => label.name)).toEqual(['backend', 'bug']);
  });
});

describe('GET /{projectSlug}/members', () => {
  it("lists the workspace's members with id, name and email", async () => {
    const { status, body } = await api.client.get('/web/members');
    expect(status).toBe(200);
    const { ada, grace, alan } = api.fixture.members;
    expect(body).toEqual([
      { id: ada.id, name: ada.name, email: ada.email },
      { id: alan.id, name: alan.name, email: alan.email },
      { id: grace.id, name: grace.name, email: grace.email },
    ]);
  });
});
