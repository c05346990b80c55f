import { systemContext } from '../../server/audit/context';
import { randomBytes } from 'node:crypto';
import { db } from '../../server/db/client';
import { createApiKey } from '../../server/keys/manage';
import { TASK_SCOPES, type Scope } from '../../server/keys/scopes';
import { createLabel, createProject, createStatus } from '../../server/projects/projects';
import { addMember } from '../../server/workspaces/members';
import { createWorkspace } from '../../server/workspaces/workspaces';

/** Who the audit log says made what the fixtures make. */
export const FIXTURE_AUDIT = systemContext('test fixture');

const unique = () => randomBytes(4).toString('hex');

/**
 * A workspace as the API sees it: two projects (web with a custom status, api),
 * three members, workspace-wide and project-scoped labels, and a helper to mint keys.
 */
export async function createWorkspaceFixture(options: { slug?: string } = {}) {
  const workspace = await createWorkspace(db(), { slug: options.slug ?? `ws-${unique()}`, name: 'Acme' });
  const [ada, grace, alan] = await Promise.all(
    ['Ada Lovelace', 'Grace Hopper', 'Alan Turing'].map((name) =>
      addMember(
        db(),
        {
          workspaceId: workspace.id,
          email: `${name.split(' ')[0]!.toLowerCase()}-${unique()}@acme.test`,
          name,
          role: 'member',
        },
        FIXTURE_AUDIT,
      ),
    ),
  );
  const web = await createProject(db(), { workspaceId: workspace.id, slug: 'web', name: 'Web', keyPrefix: 'WEB' });
  const api = await createProject(db(), { workspaceId: workspace.id, slug: 'api', name: 'API', keyPrefix: 'API' });
  const review = await createStatus(db(), { projectId: web.id, name: 'In Review', category: 'in_progress', color: '#a855f7' });
  const bug = await createLabel(db(), { workspaceId: workspace.id, name: 'bug', color: '#ef4444', projectId: null });
  const design = await createLabel(db(), { workspaceId: workspace.id, name: 'design', color: '#ec4899', projectId: web.id });
  const backend = await createLabel(db(), { workspaceId: workspace.id, name: 'backend', color: '#f59e0b', projectId: api.id });
  const statusOf = (project: typeof web, name: string) => project.statuses.find((s) => s.name === name)!;

  async function key(options: { scopes?: Scope[]; projectId?: string | null; expiresAt?: Date | null; name?: string } = {}) {
    const created = await createApiKey(
      db(),
      workspace.id,
      {
        name: options.name ?? 'CI bot',
        scopes: options.scopes ?? [...TASK_SCOPES],
        projectId: options.projectId ?? null,
        expiresAt: options.expiresAt ?? null,
      },
      null,
      FIXTURE_AUDIT,
    );
    return created.key;
  }

  return {
    workspace,
    members: { ada: ada!, grace: grace!, alan: alan! },
    projects: { web, api },
    statuses: {
      webTodo: statusOf(web, 'To Do'),
      webInProgress: statusOf(web, 'In Progress'),
      webDone: statusOf(web, 'Done'),
      webReview: review,
      apiTodo: statusOf(api, 'To Do'),
    },
    labels: { bug, design, backend },
    key,
  };
}

export type WorkspaceFixture = Awaited<ReturnType<typeof createWorkspaceFixture>>;
