import { env } from '../env';
import { openDatabase } from '../db/open';
import { seedDemo } from '../seed/demo';
import { printWelcome } from '../seed/welcome';
import { loadEnvFiles } from './load-env';

loadEnvFiles('development');

const database = await openDatabase({ log: (line) => process.stderr.write(`${line}\n`) });
try {
  printWelcome(await seedDemo(database.db), env().appUrl);
} finally {
  await database.close();
}
