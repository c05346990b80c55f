import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { recordEnvironment, refuseOthersProduction } from './environment';

const prismaCli = fileURLToPath(new URL('../../prisma/cli.mjs', import.meta.url));

/**
 * Applies prisma/migrations to the database at `url` with `prisma migrate deploy`,
 * then installs or upgrades graphile-worker's schema, the webhooks' job queue, and
 * records the environment the database serves if none is recorded yet. Before any of
 * it, a deployment that is not production's refuses a database recorded as production's.
 */
export async function migrateDatabase(url: string): Promise<void> {
  await refuseOthersProduction(url);
  try {
    await promisify(execFile)(process.execPath, [prismaCli, 'migrate', 'deploy'], {
      env: { ...process.env, DATABASE_URL: url },
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`Migrations failed:\n${stdout ?? ''}${stderr ?? ''}`);
  }
  // Loaded once the database is to be migrated: a refused run never pays for its config search.
  const { runMigrations } = await import('graphile-worker');
  await runMigrations({ connectionString: url });
  await recordEnvironment(url);
}
