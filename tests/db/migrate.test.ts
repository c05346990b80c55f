import { promisify } from 'node:util';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { db } from '../../server/db/client';
import { migrateDatabase } from '../../server/db/migrate';

// The commands migrateDatabase runs (Prisma's CLI is the only one), recorded and still run.
const commands = vi.hoisted(() => [] as string[][]);
vi.mock('node:child_process', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:child_process')>();
  const record = (args: unknown) => commands.push(Array.isArray(args) ? args.map(String) : []);
  const execFile = (...args: Parameters<typeof actual.execFile>) => {
    record(args[1]);
    return actual.execFile(...args);
  };
  const promised = (actual.execFile as unknown as Record<symbol, (...args: unknown[]) => unknown>)[promisify.custom]!;
  return {
    ...actual,
    execFile: Object.assign(execFile, {
      [promisify.custom]: (...args: unknown[]) => {
        record(args[1]);
        return promised(...args);
      },
    }),
  };
});
// The worker's next file shares this process (tests/support/fresh-modules.ts) and must not meet this mock.
afterAll(() => {
  vi.doUnmock('node:child_process');
});

const url = () => process.env.DATABASE_URL!;
const ranPrisma = () => commands.some((args) => args.includes('migrate') && args.includes('deploy'));

interface MigrationRecord {
  id: string;
  checksum: string;
  migration_name: string;
  started_at: Date;
  finished_at: Date | null;
  applied_steps_count: number;
}

/** Changes the newest migration's record for one test, then puts it back as it was (its tables are all there). */
async function withNewestRecord(change: (name: string) => Promise<unknown>, test: () => Promise<void>): Promise<void> {
  const [newest] = await db().$queryRaw<MigrationRecord[]>`
    SELECT id, checksum, migration_name, started_at, finished_at, applied_steps_count FROM _prisma_migrations
     ORDER BY migration_name DESC LIMIT 1`;
  await change(newest!.migration_name);
  try {
    await test();
  } finally {
    await db().$executeRaw`DELETE FROM _prisma_migrations WHERE migration_name = ${newest!.migration_name}`;
    await db().$executeRaw`INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
      VALUES (${newest!.id}, ${newest!.checksum}, ${newest!.migration_name}, ${newest!.started_at}, ${newest!.finished_at}, ${newest!.applied_steps_count})`;
  }
}

beforeEach(() => {
  commands.length = 0;
});

describe('migrating a database', () => {
  it("does not start Prisma's CLI when every migration is recorded as applied", async () => {
    await migrateDatabase(url());
    expect(commands).toEqual([]);
  });

  it("hands a database with a migration not recorded to Prisma's CLI", async () => {
    await withNewestRecord(
      (name) => db().$executeRaw`DELETE FROM _prisma_migrations WHERE migration_name = ${name}`,
      async () => {
        // Prisma applies the migration again, over its own tables, and may fail doing so: what matters is that it ran.
        await migrateDatabase(url()).catch(() => {});
        expect(ranPrisma()).toBe(true);
      },
    );
  });

  it("hands a database with a failed migration to Prisma's CLI, which reports it", async () => {
    await withNewestRecord(
      (name) => db().$executeRaw`UPDATE _prisma_migrations SET finished_at = NULL WHERE migration_name = ${name}`,
      async () => {
        await expect(migrateDatabase(url())).rejects.toThrow(/Migrations failed/);
        expect(ranPrisma()).toBe(true);
      },
    );
  });
});
