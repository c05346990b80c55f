import { randomBytes } from 'node:crypto';
import { afterAll, inject } from 'vitest';
import { disconnectDb } from '../../server/db/client';
import { disconnectReplica } from '../../server/db/replica';
import { stopRequestLog } from '../../server/request-log/flush';
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
  // Vitest numbers its workers from 1; a file has its worker's host to itself.
  const host = source.hosts[(Number(process.env.VITEST_POOL_ID ?? 1) - 1) % source.hosts.length]!;
  const answer = await fetch(`${host}/acquire`, { method: 'POST' });
  const url = await answer.text();
  if (!answer.ok) throw new Error(`The test database host refused a database: ${url}`);
  process.env.DATABASE_URL = url;
  stop = () => fetch(`${host}/release`, { method: 'POST', body: url }).then((released) => void released.body?.cancel());
}

// The worker's next file shares this process (fresh-modules.ts): what runs on a timer, the request
// log's flush and the replica's notes of the primary's position, is stopped before the pools close,
// or it would open a pool on this file's database once the next file has begun.
afterAll(async () => {
  await stopRequestLog();
  await disconnectReplica();
  await disconnectDb();
  await stop();
});
