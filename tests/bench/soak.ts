import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { createDb } from '../../server/db/client';
import { purgeStorage } from '../../server/retention/purge';
import { newSigningSecret, sealSecret } from '../../server/webhooks/secret';
import { freePort } from '../support/ports';
import { startFakeBlobApi, TOKEN } from '../support/fake-blob-api';
import { createBenchDatabase } from './database';
import { describeMachine } from './machine';
import { scenarios, type Scenario } from './scenarios';
import { seedBench } from './seed';
import { buildApp, startProcess } from './server';

/**
 * `npm run bench:soak`: the benchmark's write scenarios (create, patch, comment, the
 * 100 KB upload) against `npm start` (its resident worker included) for 10 minutes,
 * each request with an Idempotency-Key, two webhook endpoints on a loopback receiver,
 * attachments on Vercel Blob (the fake Blob API, keeping sizes only), and direct
 * uploads beside them: completed, abandoned, and sent again after their task was
 * deleted. Then the purge, as the job runs it, at the end of the load and as the
 * clock will be once everything written has outlived its time; each time the rows
 * and objects are counted against their bounds. Writes tests/bench/results/soak.md.
 */

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    connections: { type: 'string', default: '8' },
    'skip-build': { type: 'boolean', default: false },
  },
});
const MINUTES = Number(values.minutes);
const CONNECTIONS = Number(values.connections);
const root = fileURLToPath(new URL('../..', import.meta.url));
const serverUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const log = (line: string) => process.stderr.write(`[soak] ${line}\n`);
const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
const KEPT_PER_ENDPOINT = 50;
const ENDPOINTS = 2;
// One secret for this process and the server: the endpoints' signing secrets are sealed here, opened there.
const APP_SECRET = 'soak-app-secret-of-at-least-thirty-two-characters';
process.env.APP_SECRET = APP_SECRET;

/** A webhook receiver that counts what it gets and answers 204 at once. */
async function startCountingReceiver() {
  let received = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received: () => received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** One scenario with autocannon, every request with an Idempotency-Key of its own. */
async function drive(baseUrl: string, scenario: Scenario, apiKey: string, seconds: number) {
  const result = await autocannon({
    url: baseUrl,
    connections: CONNECTIONS,
    duration: seconds,
    timeout: 30,
    requests: [
      {
        method: scenario.method,
        setupRequest: (request) => ({
          ...request,
          path: scenario.path(),
          body: scenario.body?.(),
          headers: {
            authorization: `Bearer ${apiKey}`,
            'idempotency-key': randomUUID(),
            ...(scenario.contentType && { 'content-type': scenario.contentType }),
          },
        }),
      },
    ],
  });
  return { name: scenario.name, requests: result.requests.total, non2xx: result.non2xx, errors: result.errors + result.timeouts };
}

/**
 * Direct uploads one after another until `until`: in turn completed, abandoned
 * (sent, never completed), and completed then sent again after their task was
 * deleted, which leaves an object nobody references.
 */
async function directUploads(baseUrl: string, apiKey: string, projectSlug: string, until: number) {
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${baseUrl}/v1/public/${projectSlug}${path}`, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
    return response;
  };
  const counts = { completed: 0, abandoned: 0, orphaned: 0 };
  for (let turn = 0; Date.now() < until; turn++) {
    const task = (await (await api('POST', '/tasks', { title: `Gets a direct upload ${turn}` })).json()) as { id: string };
    const upload = (await (await api('POST', `/tasks/${task.id}/attachments/uploads`, { filename: 'note.txt', size: 1024 })).json()) as {
      uploadId: string;
      uploadUrl: string;
      headers: Record<string, string>;
    };
    const put = async () => {
      const response = await fetch(upload.uploadUrl, { method: 'PUT', headers: upload.headers, body: new Uint8Array(1024) });
      if (!response.ok) throw new Error(`PUT ${upload.uploadUrl} answered ${response.status}`);
    };
    await put();
    const kind = (['completed', 'abandoned', 'orphaned'] as const)[turn % 3]!;
    if (kind !== 'abandoned') await api('POST', `/tasks/${task.id}/attachments/uploads/${upload.uploadId}/complete`);
    if (kind === 'orphaned') {
      await api('DELETE', `/tasks/${task.id}`);
      // The task's attachment goes at once, its object a moment later; then the URL takes the bytes again.
      for (let tries = 0; ; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        const sent = await put().then(
          () => true,
          (error: unknown) => (tries < 20 ? false : Promise.reject(error)),
        );
        if (sent) break;
      }
    }
    counts[kind]++;
  }
  return counts;
}

interface Counts {
  deliveries: number;
  pendingDeliveries: number;
  idempotencyRecords: number;
  pendingUploads: number;
  attachmentObjects: number;
  blobObjects: number;
  unreferencedObjects: number;
}

async function count(client: pg.Client, blobs: Map<string, unknown>): Promise<Counts> {
  const one = async (sql: string) => Number((await client.query<{ n: string }>(sql)).rows[0]!.n);
  const keys = [...blobs.keys()];
  const referenced = new Set(
    (
      await client.query<{ key: string }>(
        'SELECT storage_key AS key FROM attachment WHERE storage_key = ANY($1) UNION SELECT storage_key FROM pending_upload WHERE storage_key = ANY($1)',
        [keys],
      )
    ).rows.map((row) => row.key),
  );
  return {
    deliveries: await one('SELECT count(*) AS n FROM webhook_delivery'),
    pendingDeliveries: await one("SELECT count(*) AS n FROM webhook_delivery WHERE status = 'pending'"),
    idempotencyRecords: await one('SELECT count(*) AS n FROM idempotency_record'),
    pendingUploads: await one('SELECT count(*) AS n FROM pending_upload'),
    attachmentObjects: Number(
      (await client.query<{ n: string }>('SELECT count(*) AS n FROM attachment WHERE storage_key = ANY($1)', [keys])).rows[0]!.n,
    ),
    blobObjects: keys.length,
    unreferencedObjects: keys.filter((key) => !referenced.has(key)).length,
  };
}

async function main() {
  const startedAt = new Date();
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    // The Blob store and the data folder are named before this process reads its configuration
    // (sealing the endpoints' secrets does), so that its purge works on the server's store.
    const blob = await startFakeBlobApi({ lean: true });
    cleanups.push(() => blob.close());
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'taskapi-soak-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    Object.assign(process.env, {
      BLOB_READ_WRITE_TOKEN: TOKEN,
      VERCEL_BLOB_API_URL: blob.url,
      VERCEL_BLOB_RETRIES: '0',
      DATA_DIR: dataDir,
    });
    const database = await createBenchDatabase(serverUrl);
    cleanups.push(() => database.drop());
    log(`database ${database.name}`);
    const fixture = await seedBench(database.url, { bigTasks: 100, smallTasks: 1_000 });
    const receiver = await startCountingReceiver();
    cleanups.push(() => receiver.close());
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    cleanups.push(() => client.end());
    for (let i = 0; i < ENDPOINTS; i++) {
      await client.query(
        `INSERT INTO webhook_endpoint (id, workspace_id, url, events, secret_sealed) VALUES (gen_random_uuid(), $1, $2, '{}', $3)`,
        [fixture.workspaceId, `${receiver.url}/${i}`, sealSecret(newSigningSecret())],
      );
    }

    if (!values['skip-build']) await buildApp(root);
    const port = await freePort();
    const server = await startProcess({
      args: ['--import', 'tsx', path.join(root, 'server/launch/start.ts')],
      cwd: root,
      env: {
        PORT: String(port),
        DATABASE_URL: database.url,
        DATABASE_POOL_SIZE: '10',
        WEB_CONCURRENCY: '1',
        RATE_LIMIT_PER_MINUTE: '1000000000',
        REDIS_URL: '',
        UPSTASH_REDIS_REST_URL: '',
        UPSTASH_REDIS_REST_TOKEN: '',
        APP_URL: '',
        APP_SECRET,
        DATA_DIR: dataDir,
        BLOB_READ_WRITE_TOKEN: TOKEN,
        VERCEL_BLOB_API_URL: blob.url,
        VERCEL_BLOB_RETRIES: '0',
        WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
      },
      port,
      readyPath: '/v1/public/openapi.json',
    });
    cleanups.push(() => server.stop());
    const baseUrl = `http://127.0.0.1:${port}`;

    const writes = scenarios(fixture).filter((scenario) => ['create', 'patch', 'comment', 'upload-100kb'].includes(scenario.name));
    const slice = (MINUTES * 60) / writes.length;
    log(`${MINUTES} min of ${writes.map((w) => w.name).join(', ')} at ${CONNECTIONS} connections, direct uploads beside them`);
    const loadEnds = Date.now() + MINUTES * MINUTE_MS;
    const uploading = directUploads(baseUrl, fixture.apiKey, fixture.small.slug, loadEnds);
    const driven = [];
    for (const scenario of writes) driven.push(await drive(baseUrl, scenario, fixture.apiKey, slice));
    const direct = await uploading;
    // The resident worker catches up with the deliveries queued last.
    for (let waited = 0; waited < 120_000; waited += 2_000) {
      const pending = Number(
        (await client.query<{ n: string }>("SELECT count(*) AS n FROM webhook_delivery WHERE status = 'pending'")).rows[0]!.n,
      );
      if (pending === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 2_000));
    }
    await server.stop();
    const afterLoad = await count(client, blob.blobs);
    log(`after the load: ${JSON.stringify(afterLoad)}`);

    // The purge, as the job runs it (in this process: same database, same Blob store), until a run stops at no bound.
    const db = createDb(database.url, 4);
    cleanups.push(() => db.$disconnect());
    const purgeAt = async (label: string, now: number) => {
      const started = performance.now();
      const totals = { runs: 0, deliveries: 0, idempotencyRecords: 0, uploads: 0, orphanedObjects: 0 };
      let after = {};
      for (;;) {
        const { next, ...purged } = await purgeStorage(db, { now, after });
        totals.runs++;
        for (const key of ['deliveries', 'idempotencyRecords', 'uploads', 'orphanedObjects'] as const) totals[key] += purged[key];
        if (!next) break;
        after = next;
      }
      const counts = await count(client, blob.blobs);
      log(`${label}: ${JSON.stringify({ ...totals, ms: Math.round(performance.now() - started) })} → ${JSON.stringify(counts)}`);
      return { label, totals, ms: Math.round(performance.now() - started), counts };
    };
    const end = Date.now();
    const purges = [
      await purgeAt('at the end of the load', end),
      await purgeAt('17 minutes on: every URL expired', end + 17 * MINUTE_MS),
      await purgeAt('31 minutes on: every upload past its time to complete', end + 31 * MINUTE_MS),
      await purgeAt('31 days on: records and deliveries past their time', end + 31 * DAY_MS),
    ];

    const report = toMarkdown({
      startedAt,
      machine: await describeMachine(database.url, null),
      driven,
      direct,
      received: receiver.received(),
      afterLoad,
      purges,
    });
    const resultsDir = path.join(root, 'tests/bench/results');
    await mkdir(resultsDir, { recursive: true });
    await writeFile(path.join(resultsDir, 'soak.md'), report);
    process.stdout.write(report);
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error: unknown) => console.error(error));
  }
}

function toMarkdown(run: {
  startedAt: Date;
  machine: Awaited<ReturnType<typeof describeMachine>>;
  driven: Awaited<ReturnType<typeof drive>>[];
  direct: Awaited<ReturnType<typeof directUploads>>;
  received: number;
  afterLoad: Counts;
  purges: { label: string; totals: Record<string, number>; ms: number; counts: Counts }[];
}): string {
  const bounds: Record<keyof Counts, string> = {
    deliveries: `≤ ${KEPT_PER_ENDPOINT} × ${ENDPOINTS} endpoints once 30 days old`,
    pendingDeliveries: '0 once delivered',
    idempotencyRecords: '0 once 24 h old',
    pendingUploads: '0 once 30 min old',
    attachmentObjects: '(kept: their tasks hold them)',
    blobObjects: '= attachmentObjects once the uploads are gone',
    unreferencedObjects: '0 once 16 min old',
  };
  const names = Object.keys(bounds) as (keyof Counts)[];
  const lines = [
    '# Soak: the write scenarios, then the purge',
    '',
    `Run ${run.startedAt.toISOString()} by \`npm run bench:soak\` (${MINUTES} min, ${CONNECTIONS} connections). ${JSON.stringify(run.machine)}`,
    '',
    '| Scenario | Requests | non-2xx | Errors |',
    '| --- | --- | --- | --- |',
    ...run.driven.map((d) => `| ${d.name} | ${d.requests} | ${d.non2xx} | ${d.errors} |`),
    '',
    `Direct uploads beside them: ${run.direct.completed} completed, ${run.direct.abandoned} abandoned, ${run.direct.orphaned} sent again after their task was deleted. Webhook requests received: ${run.received}.`,
    '',
    `| Count | After the load | ${run.purges.map((p) => `Purge ${p.label}`).join(' | ')} | Bound |`,
    `| --- | --- | ${run.purges.map(() => '---').join(' | ')} | --- |`,
    ...names.map((name) => `| ${name} | ${run.afterLoad[name]} | ${run.purges.map((p) => p.counts[name]).join(' | ')} | ${bounds[name]} |`),
    '',
    '| Purge | Runs | Deleted deliveries | Idempotency records | Uploads | Orphaned objects | ms |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...run.purges.map(
      (p) =>
        `| ${p.label} | ${p.totals.runs} | ${p.totals.deliveries} | ${p.totals.idempotencyRecords} | ${p.totals.uploads} | ${p.totals.orphanedObjects} | ${p.ms} |`,
    ),
    '',
  ];
  return lines.join('\n');
}

await main();
