/**
 * One test worker's embedded database, for the whole run: a process holding PGlite
 * instances loaded from the run's migrated dump, each served on a port of its own
 * while a test file holds it. Loading a dump into a new PGlite costs seconds of CPU;
 * giving a released instance back as the dump left it costs milliseconds: its
 * connections are closed, its session state discarded, every table emptied and the
 * dump's rows and sequence values put back. An instance whose schema a test file
 * changed is closed and replaced by a new one from the dump.
 *
 * Started by tests/support/global-setup.ts, one per worker; it prints its control
 * address as the first line of its output. `POST /acquire` answers a database URL
 * for one test file, `POST /release` with that URL as the body gives it back.
 */
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';
import { createEmbeddedPGlite, serveEmbeddedDatabase, type EmbeddedDatabase } from '../../server/db/embedded';

const dump = await fs.readFile(process.argv[2]!);

interface Template {
  /** The catalog as the dump has it: a test file that changed it gets a new instance. */
  schema: string;
  /** Resets the tables' rows and the sequences to the dump's. */
  restore: string;
}

interface Instance {
  db: PGlite;
  served?: EmbeddedDatabase;
  /** Settled when the instance is ready for the next test file. */
  ready: Promise<void>;
}

// The objects a test file may create or change, beyond PostgreSQL's own schemas.
const USER_SCHEMAS = `n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'`;

const SCHEMA_FINGERPRINT = `
  SELECT md5(string_agg(item, ',' ORDER BY item)) AS schema FROM (
    SELECT 'n' || n.nspname AS item FROM pg_namespace n WHERE ${USER_SCHEMAS}
    UNION ALL
    SELECT 'c' || c.oid::regclass::text || ':' || c.relkind::text || ':' || coalesce(
      (SELECT string_agg(a.attname || ' ' || a.atttypid::regtype::text, ',' ORDER BY a.attnum)
       FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped), '')
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE ${USER_SCHEMAS}
    UNION ALL
    SELECT 'p' || p.oid::regprocedure::text FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE ${USER_SCHEMAS}
    UNION ALL
    SELECT 'k' || con.conname || ':' || con.conrelid::regclass::text FROM pg_constraint con JOIN pg_namespace n ON n.oid = con.connamespace WHERE ${USER_SCHEMAS}
    UNION ALL
    SELECT 't' || t.tgname || ':' || t.tgrelid::regclass::text FROM pg_trigger t
  ) catalog`;

// The request log's days are partitions its flush and the purge create as requests come
// (server/request-log): rows more than schema, which the dump, migrated only, has none of.
const DROP_REQUEST_LOG_DAYS = `
  DO $$ DECLARE day record; BEGIN
    FOR day IN SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'request_log' AND c.relkind = 'r' AND c.relispartition LOOP
      EXECUTE format('DROP TABLE request_log.%I', day.relname);
    END LOOP;
  END $$`;

/** Reads what the dump holds: the schema's fingerprint, its rows and its sequences' values. */
async function readTemplate(db: PGlite): Promise<Template> {
  const relations = await db.query<{ name: string; kind: string }>(`
    SELECT format('%I.%I', n.nspname, c.relname) AS name, c.relkind AS kind
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.relkind IN ('r', 'p', 'S') AND ${USER_SCHEMAS}
    ORDER BY 1`);
  const tables = relations.rows.filter((relation) => relation.kind !== 'S').map((relation) => relation.name);
  const statements = [`TRUNCATE ${tables.join(', ')} RESTART IDENTITY CASCADE`];
  for (const table of tables) {
    const { rows } = await db.query<{ rows: string | null }>(`SELECT json_agg(t)::text AS rows FROM ${table} t`);
    if (rows[0]!.rows === null) continue;
    statements.push(
      `INSERT INTO ${table} OVERRIDING SYSTEM VALUE SELECT * FROM json_populate_recordset(NULL::${table}, ${literal(rows[0]!.rows)})`,
    );
  }
  for (const { name } of relations.rows.filter((relation) => relation.kind === 'S')) {
    const { rows } = await db.query<{ last_value: string; is_called: boolean }>(`SELECT last_value::text, is_called FROM ${name}`);
    statements.push(`SELECT setval(${literal(name)}, ${rows[0]!.last_value}, ${rows[0]!.is_called})`);
  }
  const { rows } = await db.query<{ schema: string }>(SCHEMA_FINGERPRINT);
  return { schema: rows[0]!.schema, restore: `BEGIN;\n${statements.join(';\n')};\nCOMMIT;` };
}

function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

const instances: Instance[] = [];
const leased = new Set<Instance>();

function addInstance(): Instance {
  const instance = {} as Instance;
  instance.ready = createEmbeddedPGlite({ loadDataDir: new Blob([dump]) }).then((db) => {
    instance.db = db;
  });
  instances.push(instance);
  return instance;
}

// Loaded while the workers start, before the first test file asks.
const first = addInstance();
const template = first.ready.then(() => readTemplate(first.db));

// The Sync message: ends whatever extended-protocol turn a closed connection left open.
const SYNC = new Uint8Array([0x53, 0, 0, 0, 4]);

async function reset(instance: Instance): Promise<void> {
  await instance.served?.stop();
  instance.served = undefined;
  const { db } = instance;
  const { schema, restore } = await template;
  await db.execProtocolRaw(SYNC);
  if (db.isInTransaction()) await db.exec('ROLLBACK');
  // Listeners, advisory locks, prepared statements, temporary tables and settings of the closed connections.
  await db.exec('DISCARD ALL');
  await db.exec(DROP_REQUEST_LOG_DAYS);
  const { rows } = await db.query<{ schema: string }>(SCHEMA_FINGERPRINT);
  if (rows[0]!.schema !== schema) throw new Error('the schema changed');
  await db.exec(restore);
}

async function replace(instance: Instance): Promise<void> {
  await instance.db.close().catch(() => {});
  instance.db = await createEmbeddedPGlite({ loadDataDir: new Blob([dump]) });
}

async function acquire(): Promise<string> {
  const instance = instances.find((candidate) => !leased.has(candidate)) ?? addInstance();
  leased.add(instance);
  await instance.ready;
  await template;
  instance.served = await serveEmbeddedDatabase(instance.db);
  return instance.served.url;
}

function release(url: string): void {
  const instance = instances.find((candidate) => candidate.served?.url === url);
  if (!instance) return;
  // The next test file may take it at once: it waits for `ready`.
  instance.ready = reset(instance).catch((error: unknown) => {
    // Seconds of CPU on this worker: worth seeing when it happens after a file that did not mean to.
    process.stderr.write(`Test database host: a new database from the dump (${(error as Error).message})\n`);
    return replace(instance);
  });
  leased.delete(instance);
}

const control = http.createServer((request, response) => {
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk: string) => (body += chunk));
  request.on('end', () => {
    const answer =
      request.url === '/acquire' ? acquire() : request.url === '/release' ? Promise.resolve(release(body)).then(() => '') : null;
    if (!answer) {
      response.writeHead(404).end();
      return;
    }
    answer.then(
      (text) => response.writeHead(200).end(text),
      (error: unknown) => response.writeHead(500).end(String((error as Error).stack ?? error)),
    );
  });
});
// A test file's release comes on the socket its acquire left open, often more than
// the 5 s Node would keep it: on a loaded machine the close crossed the request
// ("other side closed" in the file's teardown). Nothing but the run's workers connect.
control.keepAliveTimeout = 0;
control.listen(0, '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${(control.address() as AddressInfo).port}\n`);
});
