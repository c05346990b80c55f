import { env } from '../env';
import { migrateDatabase } from '../db/migrate';
import { openDatabase } from '../db/open';
import { loadEnvFiles } from './load-env';

loadEnvFiles(process.env.NODE_ENV === 'production' ? 'production' : 'development');

// Embedded: opening the database migrates it.
const { database } = env();
if (database.kind === 'postgres') {
  await migrateDatabase(database.url);
} else {
  await (await openDatabase({ log: (line) => process.stderr.write(`${line}\n`) })).close();
}
process.stderr.write('Migrations applied.\n');
