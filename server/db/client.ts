import { PrismaPg } from '@prisma/adapter-pg';
import { env } from '../env';
import { PrismaClient } from './generated/client';

export type Db = PrismaClient;

// As long as a transaction waits for its turn (maxWait below): a burst of writes is not an outage.
const CONNECT_TIMEOUT_MS = 10_000;

export function createDb(url: string, poolSize = 10): PrismaClient {
  return new PrismaClient({
    // pg waits for ever for a pooled connection (or a server that does not answer):
    // past the bound, the request fails and answers 503 (server/errors.ts, asUnavailable).
    adapter: new PrismaPg({ connectionString: url, max: poolSize, connectionTimeoutMillis: CONNECT_TIMEOUT_MS }),
    // Creates and updates of one project queue on its row lock, and the embedded
    // database runs one transaction at a time: waiting 2 s (Prisma's default) for a
    // turn turns a burst of writes into errors.
    transactionOptions: { maxWait: 10_000, timeout: 15_000 },
  });
}

const holder = globalThis as unknown as { __taskApiDb?: PrismaClient };

/**
 * The process's one Prisma client. Embedded mode reaches here with DATABASE_URL
 * set too: the launcher starts the embedded server and hands its URL down.
 */
export function db(): PrismaClient {
  if (!holder.__taskApiDb) {
    const { database } = env();
    if (database.kind !== 'postgres') {
      throw new Error('DATABASE_URL is not set: start the app with `npm run dev` or `npm start`, which provide the embedded database');
    }
    holder.__taskApiDb = createDb(database.url, database.poolSize);
  }
  return holder.__taskApiDb;
}

export async function disconnectDb(): Promise<void> {
  await holder.__taskApiDb?.$disconnect();
  holder.__taskApiDb = undefined;
}
