import { openDatabase } from '../db/open';
import { env } from '../env';
import { seedDemo } from '../seed/demo';
import { printLines, welcomeLines } from '../seed/welcome';
import { runMain } from './main';

runMain('development', async () => {
  const database = await openDatabase({ log: (line) => process.stderr.write(`${line}\n`) });
  try {
    printLines([...welcomeLines(await seedDemo(database.db), env().appUrl), '']);
  } finally {
    await database.close();
  }
});
