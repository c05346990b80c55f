import { randomBytes, randomUUID } from 'node:crypto';
import { verifyPassword } from 'better-auth/crypto';
import { describe, expect, it } from 'vitest';
import { db } from '../../server/db/client';
import { createApiKey } from '../../server/keys/manage';
import { hashKey } from '../../server/keys/key-format';
import { createProject } from '../../server/projects/projects';
import { addMember } from '../../server/workspaces/members';
import { createWorkspace } from '../../server/workspaces/workspaces';
import { parseCommand, UsageError } from '../../server/admin/parse';
import { runAdmin, runAdminInProcess } from '../support/cli';
import { FIXTURE_AUDIT } from '../support/fixtures';

let counter = 0;
const slug = () => `cli-${process.pid}-${++counter}`;

// Preconditions are made in-process, and most commands run here too, through the code the
// CLI's entry point runs (runCli). What only the process shows runs it as `npm run admin` does:
// stdout holding nothing but the JSON, the exit code of a bad configuration, standard input.
async function workspace(options: { withProject?: boolean } = {}) {
  const created = await createWorkspace(db(), { slug: slug(), name: 'CLI Co' });
  if (options.withProject) await createProject(db(), { workspaceId: created.id, slug: 'web', name: 'Web', keyPrefix: 'WEB' });
  return created.slug;
}

async function createKey(ws: string) {
  const workspaceId = (await db().workspace.findUniqueOrThrow({ where: { slug: ws } })).id;
  return createApiKey(db(), workspaceId, { name: 'CI', scopes: ['task:read'], projectId: null, expiresAt: null }, null, FIXTURE_AUDIT);
}

describe('admin CLI', () => {
  it('workspace create prints exactly one JSON object with the id on stdout', async () => {
    const s = slug();
    const result = await runAdmin(['workspace', 'create', '--slug', s, '--name', 'Acme', '--json']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
    expect(result.json).toMatchObject({ id: expect.any(String), slug: s, name: 'Acme' });
    expect(await db().workspace.findUnique({ where: { slug: s } })).not.toBeNull();
  });

  it('prints a human-readable line without --json', async () => {
    const s = slug();
    const result = await runAdminInProcess(['workspace', 'create', '--slug', s, '--name', 'Acme']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^Created workspace ${s} \\(`));
  });

  it('member add creates the user with the member role by default', async () => {
    const ws = await workspace();
    const result = await runAdminInProcess([
      'member',
      'add',
      '--workspace',
      ws,
      '--email',
      `Ada-${ws}@Example.test`,
      '--name',
      'Ada',
      '--json',
    ]);
    expect(result.code).toBe(0);
    expect(result.json).toMatchObject({ id: expect.any(String), email: `ada-${ws}@example.test`, role: 'member' });
  });

  it('member add with a password stores only a hash of it', async () => {
    const ws = await workspace();
    const password = `correct horse ${ws}`;
    const result = await runAdminInProcess<{ id: string }>([
      'member',
      'add',
      '--workspace',
      ws,
      '--email',
      `grace-${ws}@example.test`,
      '--name',
      'Grace',
      '--role',
      'admin',
      '--password',
      password,
      '--json',
    ]);
    expect(result.code).toBe(0);
    const account = await db().account.findFirstOrThrow({ where: { userId: result.json.id } });
    expect(account.providerId).toBe('credential');
    expect(account.password).not.toContain(password);
    expect(account.password).toMatch(/^[0-9a-f]+:[0-9a-f]+$/);
  });

  it('project create adds the statuses To Do, In Progress and Done in that order', async () => {
    const ws = await workspace();
    const result = await runAdminInProcess<{ statuses: { name: string; category: string; order: number }[] }>([
      'project',
      'create',
      '--workspace',
      ws,
      '--slug',
      'web',
      '--name',
      'Web',
      '--prefix',
      'WEB',
      '--json',
    ]);
    expect(result.code).toBe(0);
    expect(result.json.statuses.map((s) => [s.name, s.category, s.order])).toEqual([
      ['To Do', 'todo', 0],
      ['In Progress', 'in_progress', 1],
      ['Done', 'done', 2],
    ]);
  });

  it('status create appends the status last in display order', async () => {
    const ws = await workspace({ withProject: true });
    const result = await runAdminInProcess([
      'status',
      'create',
      '--workspace',
      ws,
      '--project',
      'web',
      '--name',
      'Blocked',
      '--category',
      'in_progress',
      '--color',
      '#ff0000',
      '--json',
    ]);
    expect(result.code).toBe(0);
    expect(result.json).toMatchObject({ name: 'Blocked', category: 'in_progress', color: '#ff0000', order: 3 });
  });

  it('label create makes a workspace-wide label, or a project label with --project', async () => {
    const ws = await workspace({ withProject: true });
    const shared = await runAdminInProcess(['label', 'create', '--workspace', ws, '--name', 'bug', '--color', '#ef4444', '--json']);
    const scoped = await runAdminInProcess<{ id: string }>([
      'label',
      'create',
      '--workspace',
      ws,
      '--name',
      'design',
      '--color',
      '#ec4899',
      '--project',
      'web',
      '--json',
    ]);
    expect(shared.json).toMatchObject({ name: 'bug', scope: 'workspace' });
    expect(scoped.json).toMatchObject({ name: 'design', scope: 'project' });
    expect(await db().projectLabel.count({ where: { labelId: scoped.json.id } })).toBe(1);
  });

  it('key create prints the key once, in the documented format, and stores only its hash', async () => {
    const ws = await workspace();
    const result = await runAdminInProcess<{ id: string; key: string }>([
      'key',
      'create',
      '--workspace',
      ws,
      '--name',
      'CI',
      '--scopes',
      'task:read,task:create',
      '--json',
    ]);
    expect(result.code).toBe(0);
    expect(result.json.key).toMatch(/^tk_[0-9a-f]{40}$/);
    expect(result.json).toMatchObject({ name: 'CI', scopes: ['task:read', 'task:create'], project: null, state: 'active' });
    const stored = await db().apiKey.findUniqueOrThrow({ where: { id: result.json.id } });
    expect(stored.keyHash).toBe(hashKey(result.json.key));
    expect(stored.hint).toBe(`tk_…${result.json.key.slice(-4)}`);
  });

  it('key create limits a key to one project and an expiry', async () => {
    const ws = await workspace({ withProject: true });
    const result = await runAdminInProcess([
      'key',
      'create',
      '--workspace',
      ws,
      '--name',
      'CI',
      '--scopes',
      'task:read',
      '--project',
      'web',
      '--expires',
      '2099-01-01T00:00:00Z',
      '--json',
    ]);
    expect(result.json).toMatchObject({ project: { slug: 'web' }, expiresAt: '2099-01-01T00:00:00.000Z' });
  });

  it('key list never shows a secret', async () => {
    const ws = await workspace();
    const created = await createKey(ws);
    const listed = await runAdminInProcess<{ keys: object[] }>(['key', 'list', '--workspace', ws, '--json']);
    expect(listed.code).toBe(0);
    expect(listed.json.keys).toHaveLength(1);
    expect(listed.stdout).not.toContain(created.key);
    expect(listed.stdout).not.toContain(hashKey(created.key));
    expect(listed.json.keys[0]).not.toHaveProperty('key');
  });

  it('key revoke marks the key revoked', async () => {
    const ws = await workspace();
    const created = await createKey(ws);
    const revoked = await runAdminInProcess(['key', 'revoke', '--workspace', ws, '--id', created.id, '--json']);
    expect(revoked.code).toBe(0);
    expect(revoked.json).toMatchObject({ id: created.id, state: 'revoked', revokedAt: expect.any(String) });
  });

  describe('bad arguments are refused with a message naming the problem', () => {
    it.each([
      [['frobnicate', 'now'], /Unknown command: frobnicate now/],
      [['workspace', 'create', '--name', 'No slug'], /--slug: is required/],
      [['workspace', 'create', '--slug', 'Bad Slug', '--name', 'x'], /--slug: must be lowercase letters, digits and single dashes/],
      [['workspace', 'create', '--slug', 'ok', '--name', 'x', '--colour', 'red'], /Unknown option '--colour'/],
      [['member', 'add', '--workspace', 'ok', '--email', 'not-an-email', '--name', 'x'], /--email: must be an email address/],
      [
        ['member', 'add', '--workspace', 'ok', '--email', 'a@b.test', '--name', 'x', '--role', 'boss'],
        /--role: must be one of owner, admin, member/,
      ],
      [
        ['member', 'add', '--workspace', 'ok', '--email', 'a@b.test', '--name', 'x', '--password', 'short'],
        /--password: must be at least 8 characters/,
      ],
      [
        ['project', 'create', '--workspace', 'ok', '--slug', 'web', '--name', 'Web', '--prefix', 'web'],
        /--prefix: must be 1 to 10 uppercase letters/,
      ],
      [
        ['status', 'create', '--workspace', 'ok', '--project', 'web', '--name', 'x', '--category', 'later'],
        /--category: must be one of todo, in_progress, done/,
      ],
      [['label', 'create', '--workspace', 'ok', '--name', 'bug', '--color', 'red'], /--color: must be a hex color/],
      [
        ['key', 'create', '--workspace', 'ok', '--name', 'k', '--scopes', 'task:read,task:foo'],
        /--scopes: task:foo is not a scope; use task:read, task:create, task:update, audit:read/,
      ],
      [
        ['member', 'add', '--workspace', 'ok', '--email', 'a@b.test', '--name', 'x', '--reset-password'],
        /--reset-password: needs the new password/,
      ],
      [
        ['member', 'add', '--workspace', 'ok', '--email', 'a@b.test', '--name', 'x', '--password', 'long enough', '--password-stdin'],
        /not both/,
      ],
      [['member', 'remove', '--workspace', 'ok'], /--email: is required/],
      [['key', 'create', '--workspace', 'ok', '--name', 'k', '--scopes', ''], /--scopes: must name at least one scope/],
      [
        ['key', 'create', '--workspace', 'ok', '--name', 'k', '--scopes', 'task:read', '--expires', 'tomorrow'],
        /--expires: must be an ISO 8601/,
      ],
      [
        ['key', 'create', '--workspace', 'ok', '--name', 'k', '--scopes', 'task:read', '--expires', '2001-01-01T00:00:00Z'],
        /--expires: must be in the future/,
      ],
      [['key', 'list', '--workspace', 'ok', 'extra'], /Unexpected argument 'extra'/],
    ])('%j', async (args, message) => {
      await expect(parseCommand([...args, '--json'])).rejects.toThrow(UsageError);
      await expect(parseCommand([...args, '--json'])).rejects.toThrow(message);
    });

    it('never names a part of an option, like --scopes.0', async () => {
      await expect(parseCommand(['key', 'create', '--workspace', 'ok', '--name', 'k', '--scopes', 'task:delete'])).rejects.toThrow(
        /^key create: --scopes: task:delete is not a scope; use task:read, task:create, task:update, audit:read, requests:read, usage:read, webhook:manage$/,
      );
    });
  });

  describe('exits with 2, nothing on stdout and the reason on stderr', () => {
    it('for a scope that does not exist, named as typed', async () => {
      const result = await runAdminInProcess(['key', 'create', '--workspace', 'ok', '--name', 'k', '--scopes', 'task:foo', '--json']);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(
        /^key create: --scopes: task:foo is not a scope; use task:read, task:create, task:update, audit:read, requests:read, usage:read, webhook:manage\n/,
      );
    });

    it('for a bad argument', async () => {
      const result = await runAdminInProcess(['workspace', 'create', '--slug', 'Bad Slug', '--name', 'x', '--json']);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/--slug: must be lowercase letters/);
    });

    it('names a malformed variable of the configuration, and exits with 1', async () => {
      const result = await runAdmin(['key', 'list', '--workspace', 'x', '--json'], { DATABASE_URL: 'mysql://db/tasks' });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe('Invalid configuration:\n  - DATABASE_URL must be a URL starting with postgres:// or postgresql://\n');
    });

    it('an unknown workspace', async () => {
      const result = await runAdminInProcess(['key', 'list', '--workspace', 'no-such-workspace', '--json']);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/Workspace no-such-workspace not found/);
    });

    it('a slug that is taken', async () => {
      const ws = await workspace();
      const result = await runAdminInProcess(['workspace', 'create', '--slug', ws, '--name', 'Again', '--json']);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`Workspace ${ws} already exists`));
    });

    it('revoking an id that is not a key of the workspace', async () => {
      const ws = await workspace();
      const result = await runAdminInProcess(['key', 'revoke', '--workspace', ws, '--id', 'nope', '--json']);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/API key not found/);
    });
  });
});

async function workspaceId(ws: string) {
  return (await db().workspace.findUniqueOrThrow({ where: { slug: ws } })).id;
}

async function member(ws: string, role: 'owner' | 'admin' | 'member' = 'member', password?: string) {
  const email = `m-${ws}-${++counter}@example.test`;
  return addMember(db(), { workspaceId: await workspaceId(ws), email, name: 'Someone', role, password }, FIXTURE_AUDIT);
}

async function openSession(userId: string) {
  const token = randomBytes(16).toString('hex');
  await db().session.create({ data: { id: randomUUID(), token, userId, expiresAt: new Date(Date.now() + 86_400_000) } });
}

async function passwordMatches(userId: string, password: string) {
  const account = await db().account.findFirstOrThrow({ where: { userId, providerId: 'credential' } });
  return verifyPassword({ hash: account.password!, password });
}

describe('admin CLI: member accounts', () => {
  it('member add --password-stdin takes the password from standard input, less its line break', async () => {
    const ws = await workspace();
    const email = `stdin-${ws}@example.test`;
    const password = `from stdin ${ws}`;
    const result = await runAdmin<{ id: string }>(
      ['member', 'add', '--workspace', ws, '--email', email, '--name', 'Stdin', '--password-stdin', '--json'],
      {},
      `${password}\n`,
    );
    expect(result.code).toBe(0);
    expect(await passwordMatches(result.json.id, password)).toBe(true);
  });

  it('member add --password-stdin checks the password and names the option', async () => {
    const ws = await workspace();
    const result = await runAdminInProcess(
      ['member', 'add', '--workspace', ws, '--email', `short-${ws}@example.test`, '--name', 'S', '--password-stdin'],
      'short\n',
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--password-stdin: must be at least 8 characters/);
  });

  it("member add refuses a password for an existing email, and leaves that person's password alone", async () => {
    const ws = await workspace();
    const existing = await member(ws, 'member', 'the old password');
    const other = await workspace();
    const result = await runAdminInProcess(
      ['member', 'add', '--workspace', other, '--email', existing.email, '--name', 'Again', '--password-stdin'],
      'a new password',
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      `${existing.email} already has an account; to replace its password and end its sessions, add --reset-password`,
    );
    expect(await passwordMatches(existing.id, 'the old password')).toBe(true);
    expect(await db().membership.count({ where: { userId: existing.id } })).toBe(1);
  });

  it('member add without a password adds an existing user to another workspace, keeping their password and name', async () => {
    const ws = await workspace();
    const existing = await member(ws, 'member', 'the old password');
    const other = await workspace();
    const result = await runAdminInProcess([
      'member',
      'add',
      '--workspace',
      other,
      '--email',
      existing.email,
      '--name',
      'Renamed',
      '--json',
    ]);
    expect(result.code).toBe(0);
    expect(result.json).toMatchObject({ id: existing.id, name: 'Someone', role: 'member' });
    expect(await passwordMatches(existing.id, 'the old password')).toBe(true);
  });

  it("member add --reset-password sets the new password and ends that user's sessions", async () => {
    const ws = await workspace();
    const existing = await member(ws, 'admin', 'the old password');
    await openSession(existing.id);
    await openSession(existing.id);
    const result = await runAdminInProcess(
      [
        'member',
        'add',
        '--workspace',
        ws,
        '--email',
        existing.email,
        '--name',
        'Someone',
        '--reset-password',
        '--password-stdin',
        '--json',
      ],
      'the new password\n',
    );
    expect(result.code).toBe(0);
    expect(result.json).toMatchObject({ id: existing.id, role: 'admin', sessionsEnded: 2, passwordReset: true });
    expect(await passwordMatches(existing.id, 'the new password')).toBe(true);
    expect(await db().session.count({ where: { userId: existing.id } })).toBe(0);
  });

  it('member add --reset-password refuses an email nobody has', async () => {
    const ws = await workspace();
    const email = `nobody-${ws}@example.test`;
    const result = await runAdminInProcess(
      ['member', 'add', '--workspace', ws, '--email', email, '--name', 'N', '--reset-password', '--password-stdin'],
      'a new password',
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(`No user has the email ${email}; leave out --reset-password to create one`);
    expect(await db().user.count({ where: { email } })).toBe(0);
  });

  it('member remove takes the user out of the workspace and ends their sessions when no workspace is left', async () => {
    const ws = await workspace();
    const removed = await member(ws);
    await openSession(removed.id);
    const result = await runAdminInProcess(['member', 'remove', '--workspace', ws, '--email', removed.email, '--json']);
    expect(result.code).toBe(0);
    expect(result.json).toMatchObject({ id: removed.id, email: removed.email, sessionsEnded: 1 });
    expect(await db().membership.count({ where: { userId: removed.id } })).toBe(0);
    expect(await db().session.count({ where: { userId: removed.id } })).toBe(0);
  });

  it('member remove keeps the sessions of a user who is still in another workspace', async () => {
    const ws = await workspace();
    const removed = await member(ws);
    await addMember(
      db(),
      { workspaceId: await workspaceId(await workspace()), email: removed.email, name: 'Someone', role: 'member' },
      FIXTURE_AUDIT,
    );
    await openSession(removed.id);
    const result = await runAdminInProcess<{ sessionsEnded: number }>([
      'member',
      'remove',
      '--workspace',
      ws,
      '--email',
      removed.email,
      '--json',
    ]);
    expect(result.code).toBe(0);
    expect(result.json.sessionsEnded).toBe(0);
    expect(await db().session.count({ where: { userId: removed.id } })).toBe(1);
    expect(await db().membership.count({ where: { userId: removed.id } })).toBe(1);
  });

  it('member remove refuses to take away the only owner', async () => {
    const ws = await workspace();
    const owner = await member(ws, 'owner');
    const result = await runAdminInProcess(['member', 'remove', '--workspace', ws, '--email', owner.email]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(`${owner.email} is the only owner of this workspace; add another owner first`);
    expect(await db().membership.count({ where: { userId: owner.id } })).toBe(1);
  });

  it('member remove answers 2 for someone who is not a member', async () => {
    const ws = await workspace();
    const result = await runAdminInProcess(['member', 'remove', '--workspace', ws, '--email', `stranger-${ws}@example.test`]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(`stranger-${ws}@example.test is not a member of this workspace`);
  });
});
