import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { afterAll, inject } from 'vitest';
import { disconnectDb } from '../../server/db/client';
import { startEmbeddedDatabase } from '../../server/db/embedded';
import { databaseUrl, withDatabase } from './postgres';

/**
 * Every test file gets a fresh, migrated database of its own, named in
 * DATABASE_URL before any app module reads the configuration.
 */
const source = inject('testDatabase');
let stop: () => Promise<void>;

if (source.kind === 'postgres') {
  const name = `${source.template}_${randomBytes(4).toString('hex')}`;
  await withDatabase(source.serverUrl, (client) => client.query(`CREATE DATABASE ${name} TEMPLATE ${source.template}`));
  process.env.DATABASE_URL = databaseUrl(source.serverUrl, name);
  stop = () => withDatabase(source.serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => {});
} else {
  const embedded = await startEmbeddedDatabase({ load: new Blob([await fs.readFile(source.dump)]) });
  process.env.DATABASE_URL = embedded.url;
  stop = embedded.stop;
}

afterAll(async () => {
  await disconnectDb();
  await stop();
});
