import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { authenticateAccessToken } from '../../server/oauth/access-token';
import { db } from '../../server/db/client';
import { createGrant } from '../../server/oauth/grants';
import { ACCESS_TOKEN_PREFIX, hashToken } from '../../server/oauth/tokens';
import { createProject } from '../../server/projects/projects';
import { addMember } from '../../server/workspaces/members';
import { createWorkspace } from '../../server/workspaces/workspaces';
import { runAdminInProcess } from '../support/cli';
import { FIXTURE_AUDIT } from '../support/fixtures';

interface ListedApp {
  id: string;
  app: string;
  approvedBy: string | null;
  scopes: string[];
  project: { slug: string } | null;
  state: 'active' | 'revoked';
}

let counter = 0;

/** A workspace with one app connected to its web project, approved by an admin, and one access token of the grant. */
async function connected() {
  const workspace = await createWorkspace(db(), { slug: `apps-${process.pid}-${++counter}`, name: 'Apps Co' });
  const project = await createProject(db(), { workspaceId: workspace.id, slug: 'web', name: 'Web', keyPrefix: 'WEB' });
  const admin = await addMember(
    db(),
    {
      workspaceId: workspace.id,
      email: `admin-${randomUUID()}@acme.test`,
      name: 'Priya Raman',
      role: 'admin',
    },
    FIXTURE_AUDIT,
  );
  const clientId = `cli-${randomUUID()}`;
  await db().oauthClient.create({ data: { id: randomUUID(), clientId, name: 'Claude', redirectUris: ['http://127.0.0.1:43117/cb'] } });
  const id = await createGrant(
    db(),
    {
      workspaceId: workspace.id,
      clientId,
      appName: 'Claude',
      scopes: ['task:read'],
      projectId: project.id,
      approvedById: admin.id,
    },
    FIXTURE_AUDIT,
  );
  const token = `${ACCESS_TOKEN_PREFIX}${randomUUID().replaceAll('-', '')}`;
  await db().oauthAccessToken.create({
    data: {
      id: randomUUID(),
      token: hashToken(token.slice(ACCESS_TOKEN_PREFIX.length)),
      clientId,
      referenceId: id,
      scopes: ['task:read'],
      expiresAt: new Date(Date.now() + 3_600_000),
      resources: ['http://localhost:3000/v1/public'],
    },
  });
  return { slug: workspace.slug, id, token };
}

describe('admin CLI: connected apps', () => {
  it('app list shows each grant with its app, approver, scopes, project and state, and no token', async () => {
    const { slug, id, token } = await connected();
    const listed = await runAdminInProcess<{ workspace: string; apps: ListedApp[] }>(['app', 'list', '--workspace', slug, '--json']);

    expect(listed.code).toBe(0);
    expect(listed.json.apps).toEqual([
      expect.objectContaining({
        id,
        app: 'Claude',
        approvedBy: 'Priya Raman',
        scopes: ['task:read'],
        project: expect.objectContaining({ slug: 'web' }),
        state: 'active',
      }),
    ]);
    expect(listed.stdout).not.toContain(token.slice(ACCESS_TOKEN_PREFIX.length));
  });

  it('app revoke revokes the grant: listed as revoked, and its access token no longer authenticates', async () => {
    const { slug, id, token } = await connected();
    expect(await authenticateAccessToken(db(), token, 'rest')).not.toBeNull();

    const revoked = await runAdminInProcess<ListedApp>(['app', 'revoke', '--workspace', slug, '--id', id, '--json']);
    const listed = await runAdminInProcess<{ apps: ListedApp[] }>(['app', 'list', '--workspace', slug, '--json']);

    expect(revoked.code).toBe(0);
    expect(revoked.json).toMatchObject({ id, app: 'Claude', state: 'revoked' });
    expect(listed.json.apps.map((app) => app.state)).toEqual(['revoked']);
    expect(await authenticateAccessToken(db(), token, 'rest')).toBeNull();
  });

  it('app revoke of a grant of another workspace exits with 2 and changes nothing', async () => {
    const mine = await connected();
    const theirs = await connected();

    const refused = await runAdminInProcess(['app', 'revoke', '--workspace', mine.slug, '--id', theirs.id, '--json']);

    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/Connected app not found/);
    expect(await authenticateAccessToken(db(), theirs.token, 'rest')).not.toBeNull();
  });
});
