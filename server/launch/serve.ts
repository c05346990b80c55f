import { env } from '../env';
import { openDatabase } from '../db/open';
import { migrateDatabase } from '../db/migrate';
import { seedDemo } from '../seed/demo';
import { printLines, startLines, welcomeLines } from '../seed/welcome';
import { runServer } from './server-process';
import { startWebhookWorker } from '../jobs/worker';
import { sharedStateWarnings } from './shared-state';
import { setupCodeLine, standingSetupCode } from '../setup/setup-code';

// The embedded server multiplexes connections onto one engine; a small pool is plenty.
const EMBEDDED_POOL_SIZE = 4;

/**
 * Starts the web server on the configured database. In dev the database is migrated and,
 * when it is empty, seeded with the demo workspace; `start` never seeds. Every start of dev,
 * and of `start` on the embedded database, says where the app is and how to mint a key;
 * every start on a database without users, the setup code and where to enter it.
 * The launcher's own connection closes once idle (server/db/pool.ts): what stays open is
 * the server processes' DATABASE_POOL_SIZE and the webhook worker's pool.
 */
export async function serve(mode: 'dev' | 'start'): Promise<number> {
  const config = env();
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const database = await openDatabase({ log, poolSize: 1 });
  try {
    if (mode === 'dev' && !database.embedded) await migrateDatabase(database.directUrl);
    if (mode === 'dev' && (await database.db.workspace.count()) === 0) {
      log('Empty database: seeding the demo workspace…');
      printLines(welcomeLines(await seedDemo(database.db), config.appUrl));
    }
    if (mode === 'dev' || database.embedded) printLines(await startLines(database.db, config.appUrl));
    const setup = await standingSetupCode(database.db);
    if (setup) printLines([`  ${setupCodeLine(setup, config.appUrl)}`, '']);
    if (mode === 'start') for (const warning of sharedStateWarnings(config, database.embedded)) log(warning);
    const extraEnv: Record<string, string> = { DATABASE_URL: database.url, WEBHOOK_RESIDENT_WORKER: 'true' };
    if (database.embedded) extraEnv.DATABASE_POOL_SIZE = String(EMBEDDED_POOL_SIZE);
    // One webhook worker for the whole server, here rather than in each server process,
    // which keeps their memory as it was; it takes a job as soon as its change commits.
    const worker = await startWebhookWorker(database.directUrl);
    try {
      return await runServer(mode, config.port, extraEnv);
    } finally {
      await worker.stop();
    }
  } finally {
    await database.close();
  }
}
