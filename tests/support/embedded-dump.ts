import { dumpEmbeddedDatabase, startEmbeddedDatabase } from '../../server/db/embedded';
import { migrateDatabase } from '../../server/db/migrate';

/** A new in-memory PGlite, migrated, as a dump that `startEmbeddedDatabase({ load })` starts from. */
export async function migratedEmbeddedDump(): Promise<Blob> {
  const embedded = await startEmbeddedDatabase();
  try {
    await migrateDatabase(embedded.url);
    return await dumpEmbeddedDatabase(embedded.db);
  } finally {
    await embedded.stop();
  }
}
