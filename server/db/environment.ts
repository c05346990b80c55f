import type pg from 'pg';
import { deploymentEnvironment } from '../env';
import { AppError } from '../errors';
import type { Prisma } from './generated/client';
import { withConnection } from './pool';

export const PRODUCTION = 'production';

/** The command that re-marks a database copied from production (server/admin/database-mark.ts). */
export const MARK_COMMAND = 'npm run admin -- database mark --environment';

/** The environment the database records, or null before the first migration run recorded one (or its table existed). */
async function recorded(client: pg.Client): Promise<string | null> {
  const { rows } = await client.query<{ present: boolean }>(`SELECT to_regclass('public.database_environment') IS NOT NULL AS present`);
  if (!rows[0]?.present) return null;
  const { rows: records } = await client.query<{ environment: string }>('SELECT environment FROM database_environment');
  return records[0]?.environment ?? null;
}

/**
 * Refuses, before anything is changed, to migrate a database recorded as production's
 * from any other environment: a preview whose DATABASE_URL was set to production's
 * would otherwise apply an unreleased schema to it.
 */
export async function refuseOthersProduction(url: string): Promise<void> {
  const mine = deploymentEnvironment();
  if (mine === PRODUCTION) return;
  const theirs = await withConnection(url, recorded);
  if (theirs !== PRODUCTION) return;
  throw new AppError(
    'conflict',
    [
      `This database is recorded as production's, and this deployment is ${mine}'s (VERCEL_ENV=${mine}): nothing was migrated.`,
      `Set DATABASE_URL and DATABASE_URL_UNPOOLED in the ${mine} environment's variables to a database of its own, such as a branch of production's.`,
      `If this database is such a branch, copied from production, mark it as ${mine}'s first (its copied webhook endpoints are disabled):`,
      `  DATABASE_URL=<this database> ${MARK_COMMAND} ${mine}`,
    ].join('\n'),
  );
}

/** After the migrations: the first run records its environment; later runs change nothing. */
export async function recordEnvironment(url: string): Promise<void> {
  await withConnection(url, (client) =>
    client.query('INSERT INTO database_environment (id, environment) VALUES (1, $1) ON CONFLICT (id) DO NOTHING', [
      deploymentEnvironment(),
    ]),
  );
}

/** Records `environment` as the one this database serves, in the caller's transaction; answers the one it replaced. */
export async function markEnvironment(tx: Prisma.TransactionClient, environment: string): Promise<string | null> {
  const [before] = await tx.$queryRaw<{ environment: string }[]>`SELECT environment FROM database_environment WHERE id = 1 FOR UPDATE`;
  await tx.$executeRaw`
    INSERT INTO database_environment (id, environment) VALUES (1, ${environment})
    ON CONFLICT (id) DO UPDATE SET environment = EXCLUDED.environment, recorded_at = now()`;
  return before?.environment ?? null;
}
