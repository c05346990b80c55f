import { verifyPassword } from 'better-auth/crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { authenticateKey } from '../../server/auth/api-key';
import { db } from '../../server/db/client';
import { seedDemo, type DemoLogins } from '../../server/seed/demo';

let logins: DemoLogins;

beforeAll(async () => {
  logins = await seedDemo(db());
});

describe('demo seed', () => {
  it('creates three projects with prefixes, the default statuses and a custom one', async () => {
    const projects = await db().project.findMany({ include: { statuses: true }, orderBy: { slug: 'asc' } });
    expect(projects.map((p) => [p.slug, p.keyPrefix])).toEqual([
      ['api', 'API'],
      ['mobile', 'MOB'],
      ['web', 'WEB'],
    ]);
    expect(projects.find((p) => p.slug === 'web')!.statuses.map((s) => s.name)).toContain('In Review');
  });

  it('creates workspace-wide and project-scoped labels and seven members', async () => {
    expect(await db().label.count({ where: { scope: 'workspace' } })).toBe(3);
    expect(await db().label.count({ where: { scope: 'project' } })).toBe(2);
    expect(await db().membership.count()).toBe(7);
  });

  it('creates a few hundred tasks with subtasks, assignees, labels, due dates and comments', async () => {
    const [tasks, subtasks, assigned, labelled, due, comments] = await Promise.all([
      db().task.count(),
      db().task.count({ where: { parentId: { not: null } } }),
      db().taskAssignee.count(),
      db().taskLabel.count(),
      db().task.count({ where: { dueDate: { not: null } } }),
      db().comment.count(),
    ]);
    expect(tasks).toBeGreaterThan(300);
    expect(Math.min(subtasks, assigned, labelled, due, comments)).toBeGreaterThan(0);
  });

  it("keeps every project's counter at its highest task number", async () => {
    const rows = await db().$queryRaw<{ ok: boolean }[]>`
      SELECT bool_and(p.task_counter = (SELECT max(number) FROM task WHERE project_id = p.id)) AS ok FROM project p`;
    expect(rows[0]?.ok).toBe(true);
  });

  it('hands out a working API key with every scope', async () => {
    const principal = (await authenticateKey(db(), logins.apiKey))?.principal;
    expect(principal?.scopes).toEqual(['task:read', 'task:create', 'task:update']);
    expect(principal?.projectId).toBeNull();
  });

  it('hands out an owner login whose password matches the stored hash', async () => {
    const user = await db().user.findUniqueOrThrow({ where: { email: logins.adminEmail }, include: { accounts: true, memberships: true } });
    expect(user.memberships[0]?.role).toBe('owner');
    expect(await verifyPassword({ hash: user.accounts[0]!.password!, password: logins.adminPassword })).toBe(true);
  });

  it('refuses to seed a second demo workspace', async () => {
    await expect(seedDemo(db())).rejects.toThrow('Workspace demo already exists');
  });
});
