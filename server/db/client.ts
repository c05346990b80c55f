import { PrismaPg } from '@prisma/adapter-pg';
import type pg from 'pg';
import { env } from '../env';
import { logThrottled } from '../log';
import { PrismaClient } from './generated/client';
import { createPool } from './pool';

export type Db = PrismaClient;

/** How the app's own connections are named to PostgreSQL (pg_stat_activity). */
export const APP_APPLICATION_NAME = 'taskapi';

const onConnectionError = (error: Error) => logThrottled('db.connection_lost', 60_000, { error });

/** A Prisma client over `pool`; ending the client ends the pool when `ownsPool`. */
export function dbOnPool(pool: pg.Pool, ownsPool: boolean): PrismaClient {
  return new PrismaClient({
    adapter: new PrismaPg(pool, { disposeExternalPool: ownsPool }),
    // Creates and updates of one project queue on its row lock, and the embedded
    // database runs one transaction at a time: waiting 2 s (Prisma's default) for a
    // turn turns a burst of writes into errors.
    transactionOptions: { maxWait: 10_000, timeout: 15_000 },
  });
}

/** A client with a pool of its own, for a command-line process or a test. */
export function createDb(url: string, poolSize = 10, applicationName = APP_APPLICATION_NAME): PrismaClient {
  return dbOnPool(createPool({ url, max: poolSize, applicationName, onError: onConnectionError }), true);
}

const holder = globalThis as unknown as { __taskApiPool?: pg.Pool; __taskApiDb?: PrismaClient };

/**
 * The process's one pool of connections to DATABASE_URL, DATABASE_POOL_SIZE of them
 * (the supervisor hands each server process its share): the app's queries, and on
 * Vercel the webhook runs after an answer and the Cron routes. Embedded mode reaches
 * here with DATABASE_URL set too: the launcher starts the embedded server and hands
 * its URL down.
 */
export function processPool(): pg.Pool {
  if (!holder.__taskApiPool) {
    const { database } = env();
    if (database.kind !== 'postgres') {
      throw new Error('DATABASE_URL is not set: start the app with `npm run dev` or `npm start`, which provide the embedded database');
    }
    holder.__taskApiPool = createPool({
      url: database.url,
      max: database.poolSize,
      applicationName: APP_APPLICATION_NAME,
      onError: onConnectionError,
    });
  }
  return holder.__taskApiPool;
}

/** The process's one Prisma client, on its one pool. */
export function db(): PrismaClient {
  holder.__taskApiDb ??= dbOnPool(processPool(), false);
  return holder.__taskApiDb;
}

export async function disconnectDb(): Promise<void> {
  const client = holder.__taskApiDb;
  const pool = holder.__taskApiPool;
  holder.__taskApiDb = undefined;
  holder.__taskApiPool = undefined;
  await client?.$disconnect();
  await pool?.end();
}
