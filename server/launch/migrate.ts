import { migrateDatabase } from '../db/migrate';
import { openDatabase } from '../db/open';
import { env } from '../env';
import { defaultMode, runMain } from './main';

runMain(defaultMode(), async () => {
  const { database } = env();
  if (database.kind === 'postgres') {
    await migrateDatabase(database.directUrl);
  } else {
    // Opening the embedded database migrates it.
    await (await openDatabase({ log: (line) => process.stderr.write(`${line}\n`) })).close();
  }
  process.stderr.write('Migrations applied.\n');
});
