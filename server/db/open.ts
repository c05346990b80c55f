import { env } from '../env';
import { createDb, type Db } from './client';
import { openEmbeddedDatabase } from './embedded';
import { migrateDatabase } from './migrate';

export interface OpenDatabase {
  db: Db;
  url: string;
  /** A direct connection's URL: migrations and LISTEN (the same as `url` unless DATABASE_URL_UNPOOLED says otherwise). */
  directUrl: string;
  embedded: boolean;
  close(): Promise<void>;
}

/**
 * The configured database for a command-line process: the PostgreSQL server of
 * DATABASE_URL, or the embedded one (reusing the server a running `npm run dev`
 * has open, else opening the data folder and migrating it).
 */
export async function openDatabase(options: { log(line: string): void; poolSize?: number }): Promise<OpenDatabase> {
  const { database } = env();
  const poolSize = options.poolSize ?? 2;
  if (database.kind === 'postgres') {
    const db = createDb(database.url, poolSize);
    return { db, url: database.url, directUrl: database.directUrl, embedded: false, close: () => db.$disconnect() };
  }
  const embedded = await openEmbeddedDatabase(database.dir);
  if (embedded.owned) {
    options.log(`Embedded database: ${database.dir}`);
    // The server it opened would keep the process alive after the error: the command would never exit.
    await migrateDatabase(embedded.url).catch(async (error: unknown) => {
      await embedded.stop();
      throw error;
    });
  }
  const db = createDb(embedded.url, poolSize);
  return {
    db,
    url: embedded.url,
    directUrl: embedded.url,
    embedded: true,
    async close() {
      await db.$disconnect();
      await embedded.stop();
    },
  };
}
