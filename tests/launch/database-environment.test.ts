import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../server/db/client';
import { COPIED_FROM_PRODUCTION } from '../../server/webhooks/previews';
import { createEndpoint } from '../../server/webhooks/endpoints';
import { runAdminInProcess } from '../support/cli';
import { createWorkspaceFixture, FIXTURE_AUDIT, type WorkspaceFixture } from '../support/fixtures';
import { PATIENCE_MS } from '../support/patience';
import { withoutTestMarkers } from '../e2e/app-server';

const root = path.resolve(import.meta.dirname, '../..');
// The endpoints are never called: a receiver's address of the test machine is enough.
process.env.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = 'true';

/** The environment a Vercel preview's build has, on this test's database. */
const previewEnv = () => ({
  ...withoutTestMarkers(process.env),
  NODE_ENV: 'production',
  VERCEL: '1',
  VERCEL_ENV: 'preview',
  DATABASE_URL: process.env.DATABASE_URL,
  DATABASE_URL_UNPOOLED: process.env.DATABASE_URL,
  APP_SECRET: 'a-preview-secret-of-at-least-32-characters',
  BLOB_READ_WRITE_TOKEN: 'vercel_blob_rw_store_secret',
  REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
});

/** `npm run db:migrate` as `npm run vercel-build` runs it first, on a preview. */
async function previewMigrate(): Promise<{ code: number; stderr: string }> {
  try {
    const { stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'server/launch/migrate.ts'], {
      cwd: root,
      env: previewEnv() as NodeJS.ProcessEnv,
      timeout: PATIENCE_MS,
    });
    return { code: 0, stderr };
  } catch (error) {
    const { code, stderr = '' } = error as { code?: number; stderr?: string };
    return { code: typeof code === 'number' ? code : 1, stderr };
  }
}

/** Everything a migration run could change: Prisma's and graphile-worker's bookkeeping, the record, every column. */
async function schemaState(): Promise<string> {
  return JSON.stringify([
    await db().$queryRaw`SELECT migration_name, finished_at FROM _prisma_migrations ORDER BY migration_name`,
    await db().$queryRaw`SELECT id FROM graphile_worker.migrations ORDER BY id`,
    await db().$queryRaw`SELECT environment, recorded_at FROM database_environment`,
    await db().$queryRaw`SELECT table_schema, table_name, column_name, data_type FROM information_schema.columns
      WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1, 2, 3`,
  ]);
}

let fixture: WorkspaceFixture;
beforeAll(async () => {
  fixture = await createWorkspaceFixture();
});

// The tests share one database, migrated as every test database is (without VERCEL_ENV), and run in order.
describe("a database recorded as production's", () => {
  it('is recorded so by the first migration run, as npm start and a production build record it', async () => {
    expect(await db().databaseEnvironment.findMany({ select: { environment: true } })).toEqual([{ environment: 'production' }]);
  });

  it('a preview build refuses to migrate: exits non-zero, says which variable to change, changes nothing', async () => {
    const before = await schemaState();
    const { code, stderr } = await previewMigrate();
    expect(code).not.toBe(0);
    expect(stderr).toContain(
      "This database is recorded as production's, and this deployment is preview's (VERCEL_ENV=preview): nothing was migrated.",
    );
    expect(stderr).toContain("Set DATABASE_URL and DATABASE_URL_UNPOOLED in the preview environment's variables");
    expect(stderr).toContain('npm run admin -- database mark --environment preview');
    expect(stderr).not.toContain('Migrations applied');
    expect(await schemaState()).toBe(before);
  });

  it('refuses the same with a migration pending, which stays pending', async () => {
    const [newest] = await db().$queryRaw<{ id: string; migration_name: string }[]>`
      DELETE FROM _prisma_migrations WHERE migration_name = (SELECT max(migration_name) FROM _prisma_migrations)
      RETURNING id, migration_name`;
    try {
      const before = await schemaState();
      const { code, stderr } = await previewMigrate();
      expect(code).not.toBe(0);
      expect(stderr).toContain('nothing was migrated');
      expect(await schemaState()).toBe(before);
      expect(await db().$queryRaw`SELECT 1 FROM _prisma_migrations WHERE migration_name = ${newest!.migration_name}`).toEqual([]);
    } finally {
      // Put back as it was: the migration's tables are all there.
      await db().$executeRaw`INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
        VALUES (${newest!.id}, '', ${newest!.migration_name}, now(), now(), 1)`;
    }
  });
});

describe('database mark, for a branch copied from production', () => {
  it("marks it as the preview's, disables the copied endpoints not marked for previews, with their events and an event per workspace; the preview then migrates it", async () => {
    const enabled = await createEndpoint(
      db(),
      fixture.workspace.id,
      { url: 'http://127.0.0.1:9/hooks', events: [], projectId: null },
      FIXTURE_AUDIT,
    );
    const forPreviews = await createEndpoint(
      db(),
      fixture.workspace.id,
      { url: 'http://127.0.0.1:9/staging', events: [], projectId: null, deliverOnPreviews: true },
      FIXTURE_AUDIT,
    );
    const other = await createWorkspaceFixture({ slug: 'other' });

    const marked = await runAdminInProcess(['database', 'mark', '--environment', 'preview', '--json']);
    expect(marked).toMatchObject({ code: 0, json: { environment: 'preview', previous: 'production', endpointsDisabled: 1 } });
    expect(await db().webhookEndpoint.findUniqueOrThrow({ where: { id: enabled.id } })).toMatchObject({
      disabledAt: expect.any(Date),
      disabledReason: COPIED_FROM_PRODUCTION,
    });
    // Marked for previews: meant to receive their events, so it stays as it was.
    expect(await db().webhookEndpoint.findUniqueOrThrow({ where: { id: forPreviews.id } })).toMatchObject({ disabledAt: null });
    const events = await db().auditEvent.findMany({
      where: { action: { in: ['webhook_endpoint.disabled', 'database.environment_marked'] } },
      orderBy: [{ action: 'asc' }, { workspaceId: 'asc' }],
    });
    expect(
      events.map(({ workspaceId, action, actorType, targetType, targetId, targetName, changes }) => ({
        workspaceId,
        action,
        actorType,
        targetType,
        targetId,
        targetName,
        changes,
      })),
    ).toEqual(
      expect.arrayContaining([
        {
          workspaceId: fixture.workspace.id,
          action: 'webhook_endpoint.disabled',
          actorType: 'cli',
          targetType: 'webhook_endpoint',
          targetId: enabled.id,
          targetName: 'http://127.0.0.1:9/hooks',
          changes: { enabled: { before: true, after: false } },
        },
        ...[fixture.workspace.id, other.workspace.id].map((workspaceId) => ({
          workspaceId,
          action: 'database.environment_marked',
          actorType: 'cli',
          targetType: 'database',
          targetId: null,
          targetName: 'preview',
          changes: { environment: { before: 'production', after: 'preview' } },
        })),
      ]),
    );
    expect(events).toHaveLength(3);

    const { code, stderr } = await previewMigrate();
    expect({ code, stderr }).toMatchObject({ code: 0, stderr: expect.stringContaining('Migrations applied.') });
    expect(await db().databaseEnvironment.findMany({ select: { environment: true } })).toEqual([{ environment: 'preview' }]);
  });

  it('marking it again changes nothing and records nothing', async () => {
    const events = await db().auditEvent.count();
    const again = await runAdminInProcess(['database', 'mark', '--environment', 'preview']);
    expect(again).toMatchObject({ code: 0, stdout: "This database is already marked as preview's\n" });
    expect(await db().auditEvent.count()).toBe(events);
  });

  it('refuses an environment name that is not one', async () => {
    const refused = await runAdminInProcess(['database', 'mark', '--environment', 'Preview; DROP']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--environment: must be an environment name such as preview');
  });
});
