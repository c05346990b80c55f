#!/usr/bin/env node
// Stand-in for Prisma's native schema-engine binary, which cannot be downloaded here.
// The CLI runs it via PRISMA_SCHEMA_ENGINE_BINARY and talks line-delimited JSON-RPC on
// stdin/stdout; each method is forwarded to the official wasm build of the same engine
// (@prisma/schema-engine-wasm) running over @prisma/adapter-pg.
// stdout carries only JSON-RPC; every log goes to stderr.
// This relies on an internal protocol: keep prisma, @prisma/adapter-pg and the wasm engine pinned.
// @fits prisma@7.10.1
// @fits @prisma/adapter-pg@7.10.1
// @fits @prisma/schema-engine-wasm@7.10.0-7.561d7b42579a2459cc8edf3788918b626c640023
// Relies on: the CLI's JSON-RPC with its engine, the wasm engine's exports, and methods of
// adapter-pg's prototype it replaces (see the patches below).
// Guarded by: tests/db/migrations.test.ts, which looks at the migrated database itself.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { bindMigrationAwareSqlAdapterFactory, ColumnTypeEnum } from '@prisma/driver-adapter-utils';
import * as bg from '@prisma/schema-engine-wasm/schema_engine_bg';

// The engine's panic hook reports the Rust panic message here before the wasm traps.
let panicMessage;
globalThis.PRISMA_WASM_PANIC_REGISTRY = { set_message: (message) => (panicMessage = message) };

// Load the wasm by hand: the package's entry uses an ESM wasm import that Node 20 cannot load.
const wasmUrl = new URL('schema_engine_bg.wasm', import.meta.resolve('@prisma/schema-engine-wasm'));
const { instance } = await WebAssembly.instantiate(await readFile(wasmUrl), { './schema_engine_bg.js': bg });
bg.__wbg_set_wasm(instance.exports);
instance.exports.__wbindgen_start();

const log = (level, message, extra = {}) =>
  process.stderr.write(
    JSON.stringify({ timestamp: new Date().toISOString(), level, fields: { message, ...extra }, target: 'schema_engine::logger' }) + '\n',
  );

// --- adapter-pg patches (see notes in the repo's stack facts) -----------------------------
const CHAR_OID = 18; // PostgreSQL's internal one-byte "char" (pg_constraint.contype etc.)
const TEXT_OID = 25;
const probe = await new PrismaPg({}).connect(); // no query is run, so no connection is made
const PgQueryable = Object.getPrototypeOf(Object.getPrototypeOf(probe));
const charColumns = new WeakMap(); // result rows -> indexes of "char" columns
const { performIO, queryRaw } = PgQueryable;
// adapter-pg rejects OID 18; let it through as text, then report it as Character, the
// engine's own one-char type (the stack notes saw the engine panic on constraint types with Text).
PgQueryable.performIO = async function (query) {
  const result = await performIO.call(this, query);
  const indexes = [];
  result.fields?.forEach((field, i) => {
    if (field.dataTypeID !== CHAR_OID) return;
    field.dataTypeID = TEXT_OID;
    indexes.push(i);
  });
  if (indexes.length) charColumns.set(result.rows, indexes);
  return result;
};
PgQueryable.queryRaw = async function (query) {
  const result = await queryRaw.call(this, query);
  for (const i of charColumns.get(result.rows) ?? []) result.columnTypes[i] = ColumnTypeEnum.Character;
  return result;
};
// adapter-pg splits scripts on every ";" (breaking strings and $$ bodies). Send the script
// whole, as the native engine does: one simple query, run as one implicit transaction.
Object.getPrototypeOf(probe).executeScript = async function (script) {
  try {
    await this.client.query(script);
  } catch (error) {
    this.onError(error);
  }
};

// Separate fields, not connectionString: pg lets a connectionString override `database`.
function pgConfig(url, database) {
  const u = new URL(url);
  const param = (name) => u.searchParams.get(name) ?? undefined;
  const sslmode = param('sslmode');
  return {
    host: param('host') ?? (decodeURIComponent(u.hostname) || 'localhost'),
    port: Number(u.port || 5432),
    user: decodeURIComponent(u.username) || undefined,
    password: decodeURIComponent(u.password) || undefined,
    database: database ?? (decodeURIComponent(u.pathname.slice(1)) || undefined),
    ssl: !sslmode || sslmode === 'disable' || sslmode === 'prefer' ? undefined : { rejectUnauthorized: sslmode.startsWith('verify') },
    options: param('schema') && `-c search_path="${param('schema')}"`,
  };
}
const connect = (url, database) =>
  new PrismaPg(pgConfig(url, database), { schema: new URL(url).searchParams.get('schema') ?? undefined }).connect();

async function withClient(url, database, fn) {
  const client = new pg.Client(pgConfig(url, database));
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function adapterFactory({ url, shadowDatabaseUrl }) {
  if (!url) throw new Error('No datasource url (is DATABASE_URL set?): the wasm schema engine always needs a database.');
  return bindMigrationAwareSqlAdapterFactory({
    provider: 'postgres',
    adapterName: '@prisma/adapter-pg',
    connect: () => connect(url),
    async connectToShadowDb() {
      if (shadowDatabaseUrl) {
        if (shadowDatabaseUrl === url) throw new Error('The shadow database URL is the same as the main database URL.');
        // Like the native engine, wipe a configured shadow database before use.
        await withClient(shadowDatabaseUrl, undefined, async (client) => {
          const { rows } = await client.query(
            `SELECT nspname FROM pg_namespace WHERE nspname NOT LIKE 'pg\\_%' AND nspname <> 'information_schema'`,
          );
          for (const { nspname } of rows) await client.query(`DROP SCHEMA "${nspname}" CASCADE`);
          await client.query('CREATE SCHEMA IF NOT EXISTS public');
        });
        return connect(shadowDatabaseUrl);
      }
      const name = `prisma_migrate_shadow_db_${randomUUID()}`;
      await withClient(url, undefined, (client) => client.query(`CREATE DATABASE "${name}"`));
      const shadow = await connect(url, name);
      const dispose = shadow.dispose.bind(shadow);
      // End the shadow pool first, or DROP DATABASE fails ("being accessed by other users").
      shadow.dispose = async () => {
        await dispose();
        await withClient(url, undefined, (client) => client.query(`DROP DATABASE IF EXISTS "${name}"`));
      };
      return shadow;
    },
  });
}

async function createDatabase(url) {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  // Connect to the server's `postgres` database to create the one the URL names.
  await withClient(url, 'postgres', (client) => client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`));
  return { databaseName: name };
}

// --- arguments ------------------------------------------------------------------------------
const args = process.argv.slice(2);
const datamodelPaths = [];
let datasource = {};
let cliCommand;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--datamodels') datamodelPaths.push(args[++i]);
  else if (args[i] === '--datasource') datasource = JSON.parse(args[++i]);
  else if (args[i] === 'cli') cliCommand = args[++i];
  else if (args[i].startsWith('--')) i++; // --enabled-preview-features, --extension-types: unused here
}

if (args.includes('--version')) {
  process.stdout.write(`schema-engine-wasm ${bg.version()}\n`); // `prisma version` shows this
  process.exit(0);
}

// --- one-shot mode: `--datasource JSON cli <command>` -----------------------------------------
// The CLI drops the first stderr line and parses every other one as JSON, looking for an
// ERROR with an error_code; P1003 (database does not exist) makes it run `create-database`.
if (cliCommand) {
  log('INFO', `Starting schema engine CLI (${cliCommand})`);
  try {
    if (cliCommand === 'can-connect-to-database') await withClient(datasource.url, undefined, (c) => c.query('SELECT 1'));
    else if (cliCommand === 'create-database') await createDatabase(datasource.url);
    else throw Object.assign(new Error(`Unsupported command: ${cliCommand}`), { code: 'unsupported' });
    process.exit(0);
  } catch (error) {
    const { host, port, database } = pgConfig(datasource.url);
    const [error_code, message] =
      error.code === '3D000'
        ? ['P1003', `Database \`${database}\` does not exist on the database server at \`${host}:${port}\`.`]
        : error.code === '28P01' || error.code === '28000'
          ? ['P1000', `Authentication failed against database server at \`${host}\`: ${error.message}`]
          : error.code === '42P04'
            ? ['P1009', `Database \`${database}\` already exists on the database server at \`${host}:${port}\``]
            : ['P1001', `Can't reach database server at \`${host}:${port}\`: ${error.message}`];
    process.stderr.write(JSON.stringify({ level: 'ERROR', target: 'schema_engine::logger', fields: { error_code, message } }));
    process.exit(1);
  }
}

// --- JSON-RPC mode ----------------------------------------------------------------------------
const datamodels = await Promise.all(datamodelPaths.map(async (path) => [path, await readFile(path, 'utf8')]));
// Unlike the native engine, the wasm engine queries the database as soon as it starts (even
// for a diff that needs none), so a bad or missing URL fails every request, with its reason.
let factory, engine, engineError;
try {
  factory = adapterFactory(datasource);
  engine = await bg.SchemaEngine.new(
    { datamodels: datamodels.length ? datamodels : undefined },
    (line) => process.stderr.write(line.endsWith('\n') ? line : `${line}\n`),
    factory,
  );
} catch (error) {
  engineError = error;
}

// Errors thrown inside the adapter reach us as "External error id#N"; the registry has the real one.
function explain(error) {
  const id = /External error id#(\d+)/.exec(error?.message ?? '')?.[1];
  const original = id !== undefined && factory?.errorRegistry.consumeError(Number(id))?.error;
  if (!original) return error;
  const cause = original.cause ?? original;
  return new Error(`${original.message ?? cause.kind}${cause.kind ? ` (${JSON.stringify(cause)})` : ''}`);
}

const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n');
const pendingPrints = new Map();
let printId = 0;
// The native engine hands diff output back as a `print` request so that the CLI writes it
// (the CLI captures it for `--output`); the CLI answers each print with a result.
const print = (content) =>
  new Promise((resolve) => {
    const id = `print-${++printId}`;
    pendingPrints.set(id, resolve);
    send({ id, method: 'print', params: { content } });
  });

const withMigrationsCached = ({ migrationsList, filters }) =>
  engine.diagnoseMigrationHistory({ migrationsList, filters, optInToShadowDatabase: true });

const methods = {
  createDatabase: ({ datasource: ds }) => createDatabase(ds.url ?? datasource.url),
  getDatabaseVersion: (params) => engine.version(params),
  // The wasm engine gives these two no shadow-database factory: they only read a cache of the
  // migrations' schema that devDiagnostic fills, but not when the database was behind (then
  // `migrate dev` failed with "shadow DB must be provided through an external factory").
  // diagnoseMigrationHistory has the factory and fills the same cache.
  evaluateDataLoss: (params) => withMigrationsCached(params).then(() => engine.evaluateDataLoss(params)),
  createMigration: (params) => withMigrationsCached(params).then(() => engine.createMigration(params)),
  async diff(params) {
    const { exitCode, stdout } = await engine.diff(params);
    if (stdout) await print(stdout);
    return { exitCode, stdout: null };
  },
};

async function handle({ id, method, params }) {
  try {
    if (!engine) throw engineError ?? new Error('The schema engine failed to start.');
    const fn = methods[method] ?? (typeof engine[method] === 'function' && method !== 'free' && ((p) => engine[method](p)));
    if (!fn) throw Object.assign(new Error(`Unknown method: ${method}`), { code: -32601 });
    send({ id, result: (await fn(params ?? {})) ?? {} });
  } catch (thrown) {
    const panic = thrown instanceof WebAssembly.RuntimeError;
    const error = panic && panicMessage ? new Error(panicMessage) : explain(thrown);
    log('ERROR', String(error?.message ?? error), { error_code: error?.code });
    send({
      id,
      error: {
        code: typeof error?.code === 'number' ? error.code : 4466,
        message: error?.message ?? String(error),
        data: {
          is_panic: panic,
          message: error?.message ?? String(error),
          meta: error?.meta,
          error_code: typeof error?.code === 'string' ? error.code : undefined,
        },
      },
    });
    if (panic) process.exit(101); // the wasm instance is unusable after a panic
  }
}

const inFlight = new Set();
createInterface({ input: process.stdin, crlfDelay: Infinity })
  .on('line', (line) => {
    if (!line.trim()) return;
    const message = JSON.parse(line);
    if (message.method === undefined && pendingPrints.has(message.id)) {
      pendingPrints.get(message.id)();
      pendingPrints.delete(message.id);
      return;
    }
    const job = handle(message).finally(() => inFlight.delete(job));
    inFlight.add(job);
  })
  // The CLI ends stdin to stop the engine; open pools would otherwise keep the process alive.
  .on('close', async () => {
    await Promise.allSettled(inFlight);
    process.exit(0);
  });
