import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { recordEnvironment, refuseOthersProduction } from './environment';
import { withConnection } from './pool';

const prismaCli = fileURLToPath(new URL('../../prisma/cli.mjs', import.meta.url));
const migrationsDir = fileURLToPath(new URL('../../prisma/migrations', import.meta.url));

/**
 * Whether Prisma records every migration of prisma/migrations as applied, and none as
 * failed: then `prisma migrate deploy` has nothing to do. It is not run then, for it
 * starts three processes (its CLI, the loader of its config, the wasm schema engine),
 * 2 to 4 s of CPU that every `npm start`, every start of `npm run dev` and every admin
 * command on the embedded database paid to find nothing to apply. Any other state (a
 * migration missing, or failed and not rolled back) is Prisma's to apply or report.
 */
async function appliedAlready(url: string): Promise<boolean> {
  const entries = await readdir(migrationsDir, { withFileTypes: true });
  const ours = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  return withConnection(url, async (client) => {
    const { rows } = await client.query<{ present: boolean }>(`SELECT to_regclass('public._prisma_migrations') IS NOT NULL AS present`);
    if (!rows[0]?.present) return false;
    const { rows: records } = await client.query<{ name: string; state: 'applied' | 'failed' | 'rolled back' }>(
      `SELECT migration_name AS name,
              CASE WHEN rolled_back_at IS NOT NULL THEN 'rolled back' WHEN finished_at IS NULL THEN 'failed' ELSE 'applied' END AS state
         FROM _prisma_migrations`,
    );
    if (records.some((record) => record.state === 'failed')) return false;
    const applied = new Set(records.filter((record) => record.state === 'applied').map((record) => record.name));
    return ours.every((name) => applied.has(name));
  });
}

/**
 * Applies prisma/migrations to the database at `url` with `prisma migrate deploy`,
 * then installs or upgrades graphile-worker's schema, the webhooks' job queue, and
 * records the environment the database serves if none is recorded yet. Before any of
 * it, a deployment that is not production's refuses a database recorded as production's.
 */
export async function migrateDatabase(url: string): Promise<void> {
  await refuseOthersProduction(url);
  if (!(await appliedAlready(url))) await deployMigrations(url);
  // Loaded once the database is to be migrated: a refused run never pays for its config search.
  const { runMigrations } = await import('graphile-worker');
  await runMigrations({ connectionString: url });
  await recordEnvironment(url);
}

async function deployMigrations(url: string): Promise<void> {
  try {
    await promisify(execFile)(process.execPath, [prismaCli, 'migrate', 'deploy'], {
      env: { ...process.env, DATABASE_URL: url },
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`Migrations failed:\n${stdout ?? ''}${stderr ?? ''}`);
  }
}
