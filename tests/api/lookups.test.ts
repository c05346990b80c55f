import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { db } from '../../server/db/client';
import { createLabel, createStatus } from '../../server/projects/projects';
import { MAX_LABELS_PER_WORKSPACE, MAX_MEMBERS_PER_WORKSPACE, MAX_STATUSES_PER_PROJECT } from '../../server/schemas/lookups';
import { addMember } from '../../server/workspaces/members';
import { createWorkspaceFixture, FIXTURE_AUDIT } from '../support/fixtures';
import { useApi } from '../support/api';
import { apiClient } from '../support/client';

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

describe('the lookups are answered whole, so each has a bound where it is added', () => {
  it(`a project takes ${MAX_STATUSES_PER_PROJECT} statuses, a workspace ${MAX_LABELS_PER_WORKSPACE} labels and ${MAX_MEMBERS_PER_WORKSPACE} members`, async () => {
    const fx = await createWorkspaceFixture();
    const { web } = fx.projects;
    const statuses = await db().status.count({ where: { projectId: web.id } });
    await db().status.createMany({
      data: Array.from({ length: MAX_STATUSES_PER_PROJECT - statuses - 1 }, (_, i) => ({
        projectId: web.id,
        name: `S${i}`,
        category: 'todo' as const,
        order: 100 + i,
      })),
    });
    await createStatus(db(), { projectId: web.id, name: 'Last', category: 'done', color: null });
    await expect(createStatus(db(), { projectId: web.id, name: 'One more', category: 'done', color: null })).rejects.toThrow(
      `A project has at most ${MAX_STATUSES_PER_PROJECT} statuses`,
    );

    const labels = await db().label.count({ where: { workspaceId: fx.workspace.id } });
    await db().label.createMany({
      data: Array.from({ length: MAX_LABELS_PER_WORKSPACE - labels - 1 }, (_, i) => ({
        workspaceId: fx.workspace.id,
        name: `L${i}`,
        color: '#000000',
      })),
    });
    await createLabel(db(), { workspaceId: fx.workspace.id, name: 'Last', color: '#ffffff', projectId: null });
    await expect(createLabel(db(), { workspaceId: fx.workspace.id, name: 'One more', color: '#ffffff', projectId: null })).rejects.toThrow(
      `A workspace has at most ${MAX_LABELS_PER_WORKSPACE} labels`,
    );
    // The lists stay within what the document declares (the client checks every answer against it).
    const client = apiClient(api.server.baseUrl, await fx.key());
    expect((await client.get('/web/statuses')).body).toHaveLength(MAX_STATUSES_PER_PROJECT);
    expect((await client.get('/web/labels')).body.length).toBeLessThanOrEqual(MAX_LABELS_PER_WORKSPACE);

    const members = await db().membership.count({ where: { workspaceId: fx.workspace.id } });
    const ids = Array.from({ length: MAX_MEMBERS_PER_WORKSPACE - members }, () => randomUUID());
    await db().user.createMany({ data: ids.map((id) => ({ id, name: 'Member', email: `${id}@acme.test` })) });
    await db().membership.createMany({ data: ids.map((userId) => ({ workspaceId: fx.workspace.id, userId })) });
    await expect(
      addMember(db(), { workspaceId: fx.workspace.id, email: 'one-more@acme.test', name: 'One more', role: 'member' }, FIXTURE_AUDIT),
    ).rejects.toThrow(`A workspace has at most ${MAX_MEMBERS_PER_WORKSPACE} members`);
  });
});
