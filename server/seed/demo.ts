import { randomBytes, randomUUID } from 'node:crypto';
import { systemContext } from '../audit/context';
import type { Db } from '../db/client';
import type { Prisma } from '../db/generated/client';
import { createApiKey } from '../keys/manage';
import { TASK_SCOPES } from '../keys/scopes';
import { createLabel, createProject, createStatus } from '../projects/projects';
import { PRIORITIES } from '../schemas/common';
import { addMember } from '../workspaces/members';
import { createWorkspace } from '../workspaces/workspaces';

export interface DemoLogins {
  workspaceSlug: string;
  projectSlug: string;
  adminEmail: string;
  adminPassword: string;
  apiKey: string;
}

const PEOPLE = [
  ['Ada Lovelace', 'ada'],
  ['Grace Hopper', 'grace'],
  ['Alan Turing', 'alan'],
  ['Katherine Johnson', 'katherine'],
  ['Edsger Dijkstra', 'edsger'],
  ['Barbara Liskov', 'barbara'],
] as const;

// The words demo and benchmark task titles are made of (tests/bench/seed.ts uses them too).
export const VERBS = ['Fix', 'Add', 'Refactor', 'Document', 'Investigate', 'Remove', 'Speed up', 'Test', 'Design', 'Migrate'];
export const THINGS = [
  'login form',
  'billing page',
  'search results',
  'onboarding flow',
  'email digest',
  'CSV export',
  'dark mode',
  'rate limiter',
  'audit log',
  'webhooks',
  'file uploads',
  'settings page',
  'mobile navigation',
  'API pagination',
  'password reset',
  'notification centre',
  'dashboard charts',
  'error pages',
  'session handling',
  'image resizing',
];
const COMMENTS = [
  'I can reproduce this on staging.',
  'Picked this up, PR coming today.',
  'Blocked on the design review.',
  'Done on my side, needs a second look.',
  'Can we split this into two tasks?',
  'Added a failing test first.',
];

/** A small deterministic generator, so every fresh demo looks the same. */
function random(seed: number) {
  let state = seed;
  const next = () => {
    state = (state * 1664525 + 1013904223) % 4294967296;
    return state / 4294967296;
  };
  return {
    next,
    int: (max: number) => Math.floor(next() * max),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
    some: <T>(items: readonly T[], max: number): T[] => {
      const count = Math.floor(next() * (max + 1));
      return [...items].sort(() => next() - 0.5).slice(0, count);
    },
  };
}

/**
 * The demo workspace: three projects with their statuses and labels, six members,
 * a few hundred tasks with subtasks, assignees, labels, due dates and comments,
 * an admin who can sign in and an API key with every task scope. Bulk inserts keep it quick.
 * Its members and key are in the audit log as the seed's.
 */
const SEED = systemContext('demo seed');

export async function seedDemo(db: Db): Promise<DemoLogins> {
  const rng = random(42);
  const workspace = await createWorkspace(db, { slug: 'demo', name: 'Demo Workspace' });
  const adminPassword = randomBytes(9).toString('base64url');
  const admin = await addMember(
    db,
    {
      workspaceId: workspace.id,
      email: 'admin@demo.test',
      name: 'Demo Admin',
      role: 'owner',
      password: adminPassword,
    },
    SEED,
  );
  const members = [admin];
  for (const [name, handle] of PEOPLE) {
    members.push(await addMember(db, { workspaceId: workspace.id, email: `${handle}@demo.test`, name, role: 'member' }, SEED));
  }

  const projects = [
    await createProject(db, { workspaceId: workspace.id, slug: 'web', name: 'Web App', keyPrefix: 'WEB' }),
    await createProject(db, { workspaceId: workspace.id, slug: 'api', name: 'Public API', keyPrefix: 'API' }),
    await createProject(db, { workspaceId: workspace.id, slug: 'mobile', name: 'Mobile', keyPrefix: 'MOB' }),
  ];
  const [web, api, mobile] = projects as [(typeof projects)[0], (typeof projects)[0], (typeof projects)[0]];
  const inReview = await createStatus(db, { projectId: web.id, name: 'In Review', category: 'in_progress', color: '#a855f7' });
  const statusesByProject = new Map(projects.map((p) => [p.id, [...p.statuses]]));
  statusesByProject.get(web.id)?.splice(2, 0, inReview);

  const shared = [
    await createLabel(db, { workspaceId: workspace.id, name: 'bug', color: '#ef4444', projectId: null }),
    await createLabel(db, { workspaceId: workspace.id, name: 'feature', color: '#3b82f6', projectId: null }),
    await createLabel(db, { workspaceId: workspace.id, name: 'chore', color: '#64748b', projectId: null }),
  ];
  const design = await createLabel(db, { workspaceId: workspace.id, name: 'design', color: '#ec4899', projectId: web.id });
  await db.projectLabel.create({ data: { projectId: mobile.id, labelId: design.id } });
  const backend = await createLabel(db, { workspaceId: workspace.id, name: 'backend', color: '#f59e0b', projectId: api.id });
  const labelsByProject = new Map([
    [web.id, [...shared, design]],
    [api.id, [...shared, backend]],
    [mobile.id, [...shared, design]],
  ]);

  const key = await createApiKey(
    db,
    workspace.id,
    { name: 'Demo key', scopes: [...TASK_SCOPES], projectId: null, expiresAt: null },
    admin.id,
    SEED,
  );

  const tasks: Prisma.TaskCreateManyInput[] = [];
  const assignees: { taskId: string; userId: string }[] = [];
  const taskLabels: { taskId: string; labelId: string }[] = [];
  const comments: Prisma.CommentCreateManyInput[] = [];
  const counters = new Map<string, number>();
  const now = Date.now();
  const day = 24 * 60 * 60 * 1000;

  const addTask = (projectId: string, parentId: string | null, createdAt: Date) => {
    const number = (counters.get(projectId) ?? 0) + 1;
    counters.set(projectId, number);
    const status = rng.pick(statusesByProject.get(projectId) ?? []);
    const id = randomUUID();
    tasks.push({
      id,
      projectId,
      number,
      parentId,
      title: `${rng.pick(VERBS)} ${rng.pick(THINGS)}`,
      description: rng.next() < 0.6 ? 'Steps:\n1. Open the page\n2. Watch what happens\n\nExpected: it works.' : null,
      statusId: status.id,
      category: status.category,
      priority: rng.pick(PRIORITIES),
      dueDate: rng.next() < 0.4 ? new Date(now + (rng.int(60) - 20) * day) : null,
      createdAt,
      updatedAt: createdAt,
    });
    for (const member of rng.some(members, 2)) assignees.push({ taskId: id, userId: member.id });
    for (const label of rng.some(labelsByProject.get(projectId) ?? [], 2)) taskLabels.push({ taskId: id, labelId: label.id });
    for (let i = rng.int(4) - 1; i > 0; i--) {
      const byKey = rng.next() < 0.2;
      comments.push({
        taskId: id,
        content: rng.pick(COMMENTS),
        authorUserId: byKey ? null : rng.pick(members).id,
        authorApiKeyId: byKey ? key.id : null,
        authorName: byKey ? key.name : null,
        createdAt: new Date(createdAt.getTime() + (i + 1) * 3600 * 1000),
      });
    }
    return id;
  };

  for (const [project, count] of [
    [web, 160],
    [api, 100],
    [mobile, 60],
  ] as const) {
    for (let i = 0; i < count; i++) {
      const createdAt = new Date(now - (count - i) * 6 * 3600 * 1000);
      const id = addTask(project.id, null, createdAt);
      if (rng.next() < 0.15) {
        for (let s = 1 + rng.int(3); s > 0; s--) addTask(project.id, id, new Date(createdAt.getTime() + s * 60_000));
      }
    }
  }

  await db.$transaction([
    db.task.createMany({ data: tasks }),
    db.taskAssignee.createMany({ data: assignees }),
    db.taskLabel.createMany({ data: taskLabels }),
    db.comment.createMany({ data: comments }),
    ...projects.map((p) => db.project.update({ where: { id: p.id }, data: { taskCounter: counters.get(p.id) ?? 0 } })),
  ]);

  return {
    workspaceSlug: workspace.slug,
    projectSlug: web.slug,
    adminEmail: admin.email,
    adminPassword,
    apiKey: key.key,
  };
}
