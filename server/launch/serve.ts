import { env } from '../env';
import { openDatabase } from '../db/open';
import { migrateDatabase } from '../db/migrate';
import { seedDemo } from '../seed/demo';
import { printLines, startLines, welcomeLines } from '../seed/welcome';
import { runServer } from './server-process';
import { createDb } from '../db/client';
import { startWebhookWorker } from '../webhooks/worker';

// The embedded server multiplexes connections onto one engine; a small pool is plenty.
const EMBEDDED_POOL_SIZE = 4;

/**
 * Starts the web server on the configured database. In dev the database is migrated and,
 * when it is empty, seeded with the demo workspace; `start` never seeds. Every start of dev,
 * and of `start` on the embedded database, says where the app is and how to mint a key.
 */
export async function serve(mode: 'dev' | 'start'): Promise<number> {
  const config = env();
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const database = await openDatabase({ log, poolSize: 1 });
  try {
    if (mode === 'dev' && !database.embedded) await migrateDatabase(database.url);
    if (mode === 'dev' && (await database.db.workspace.count()) === 0) {
      log('Empty database: seeding the demo workspace…');
      printLines(welcomeLines(await seedDemo(database.db), config.appUrl));
    }
    if (mode === 'dev' || database.embedded) printLines(await startLines(database.db, config.appUrl));
    const extraEnv: Record<string, string> = { DATABASE_URL: database.url, WEBHOOK_RESIDENT_WORKER: 'true' };
    if (database.embedded) extraEnv.DATABASE_POOL_SIZE = String(EMBEDDED_POOL_SIZE);
    // One webhook worker for the whole server, here rather than in each server process,
    // which keeps their memory as it was; it takes a job as soon as its change commits.
    const workerDb = createDb(database.url, 2);
    const worker = await startWebhookWorker(database.url, () => workerDb);
    try {
      return await runServer(mode, config.port, extraEnv);
    } finally {
      await worker.stop();
      await workerDb.$disconnect();
    }
  } finally {
    await database.close();
  }
}
