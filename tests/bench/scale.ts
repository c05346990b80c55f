import os from 'node:os';
import pg from 'pg';
import { encodeListCursor, listQueryHash } from '../../server/schemas/task';
import { createBenchDatabase } from './database';
import { drive, type LoadResult } from './load';
import { startStatementCounter } from '../support/pg-counter';
import type { Scenario } from './scenarios';
import { seedWorkspace, type BenchProject, type SeededWorkspace } from './seed';
import type { RunningServer } from './server';

/**
 * The scale section of `npm run bench` (`--scale` runs it alone): projects of
 * 1,000, 100,000 and 1,000,000 top-level tasks in one database, seeded by SQL and
 * vacuumed and analyzed; every list shape's first page, an offset page and cursor
 * pages deep in the project, each at one connection; and an import of 10,000
 * tasks by batches of 100, timed, with the statements each batch sends.
 */

export interface ScaleOptions {
  serverUrl: string;
  seconds: number;
  sizes: number[];
  startServer(databaseUrl: string): Promise<RunningServer>;
  log(line: string): void;
}

interface Shape {
  name: string;
  /** The first page of a list shape: the issue's aims compare these across projects. */
  firstPage: boolean;
  query(project: BenchProject): string;
}

const IMPORT_TASKS = 10_000;
const BATCH = 100;
const DEEP = 0.5;

export async function runScale(options: ScaleOptions): Promise<string> {
  const { log } = options;
  const database = await createBenchDatabase(options.serverUrl);
  const startLoad = os.loadavg()[0]!;
  try {
    const seedStart = Date.now();
    const seeded = await seedWorkspace(database.url, [
      ...options.sizes.map((size) => ({ slug: `p${size}`, name: `${size} tasks`, prefix: `P${size}`, topLevel: size })),
      { slug: 'import', name: 'Import', prefix: 'IMP', topLevel: 0 },
    ]);
    const seedSeconds = (Date.now() - seedStart) / 1000;
    log(`scale: seeded ${options.sizes.join(', ')} tasks in ${seedSeconds.toFixed(0)} s`);
    const shapes = await listShapes(database.url, seeded);
    const projects = seeded.projects.filter((project) => project.slug !== 'import');
    const statements = await countImportStatements(options, database.url, seeded);

    const server = await options.startServer(database.url);
    const results = new Map<string, Map<number, LoadResult>>();
    let imported: { seconds: number; failed: number };
    try {
      for (const shape of shapes) {
        const row = new Map<number, LoadResult>();
        results.set(shape.name, row);
        for (const project of projects) {
          const scenario: Scenario = { name: shape.name, floor: false, method: 'GET', path: () => shape.query(project) };
          await drive(server.url, scenario, seeded.apiKey, 1, 1);
          const result = await drive(server.url, scenario, seeded.apiKey, 1, options.seconds);
          row.set(project.topLevel, result);
          log(
            `scale ${shape.name} ${project.topLevel}: p50 ${result.p50} ms, p99 ${result.p99} ms${result.non2xx ? `, ${result.non2xx} non-2xx` : ''}`,
          );
        }
      }
      imported = await importTasks(server.url, seeded, (at) => log(`scale import: ${at} tasks`));
      log(`scale import: ${IMPORT_TASKS} tasks in ${imported.seconds.toFixed(1)} s`);
    } finally {
      await server.stop();
    }
    return report({
      sizes: options.sizes,
      shapes,
      results,
      imported,
      statements,
      seedSeconds,
      load: [startLoad, os.loadavg()[0]!],
      seconds: options.seconds,
    });
  } finally {
    await database.drop();
  }
}

/** Every list shape, and the pages deep in each project its aims speak of. */
async function listShapes(url: string, seeded: SeededWorkspace): Promise<Shape[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const deep = new Map<string, string>();
  try {
    for (const project of seeded.projects) {
      for (const [sort, order, column] of [
        ['createdAt', 'desc', 'created_at'],
        ['updatedAt', 'asc', 'updated_at'],
      ] as const) {
        const { rows } = await client.query<{ id: string; key: string }>(
          `SELECT id::text, (extract(epoch FROM ${column}) * 1000)::bigint::text AS key FROM task
           WHERE project_id = $1 AND parent_id IS NULL ORDER BY ${column} ${order}, id ${order} OFFSET $2 LIMIT 1`,
          [project.id, Math.floor(project.topLevel * DEEP)],
        );
        if (rows[0]) {
          const query = listQueryHash({ projectSlug: project.slug, sort, order });
          deep.set(`${project.slug} ${sort}`, encodeListCursor({ query, key: rows[0].key, id: rows[0].id }));
        }
      }
    }
  } finally {
    await client.end();
  }
  const list = (project: BenchProject, query: string) => `/v1/public/${project.slug}/tasks?${query}`;
  return [
    { name: 'first page', firstPage: true, query: (p) => list(p, '') },
    { name: 'status=in_progress', firstPage: true, query: (p) => list(p, 'status=in_progress') },
    { name: 'priority=high', firstPage: true, query: (p) => list(p, 'priority=high') },
    { name: 'assigneeId', firstPage: true, query: (p) => list(p, `assigneeId=${seeded.memberId}`) },
    { name: 'labelId', firstPage: true, query: (p) => list(p, `labelId=${seeded.labelId}`) },
    { name: 'search=abc', firstPage: true, query: (p) => list(p, 'search=abc') },
    { name: 'change order, limit 100', firstPage: true, query: (p) => list(p, 'sort=updatedAt&order=asc&limit=100') },
    { name: 'sort=dueDate', firstPage: true, query: (p) => list(p, 'sort=dueDate&order=asc') },
    { name: 'sort=priority', firstPage: true, query: (p) => list(p, 'sort=priority&order=desc') },
    { name: 'page 25,000 (offset)', firstPage: false, query: (p) => list(p, 'page=25000') },
    {
      name: `cursor at ${DEEP * 100}% (newest first)`,
      firstPage: false,
      query: (p) => list(p, `after=${deep.get(`${p.slug} createdAt`)}`),
    },
    {
      name: `cursor at ${DEEP * 100}% (change order, limit 100)`,
      firstPage: false,
      query: (p) => list(p, `sort=updatedAt&order=asc&limit=100&after=${deep.get(`${p.slug} updatedAt`)}`),
    },
  ];
}

const batchBody = (from: number) =>
  JSON.stringify({
    tasks: Array.from({ length: BATCH }, (_, i) => ({
      title: `Imported ${from + i}`,
      description: 'Carried over from the old tracker.',
      priority: (['none', 'low', 'medium', 'high'] as const)[i % 4],
    })),
  });

async function post(baseUrl: string, apiKey: string, path: string, body: string, method = 'POST'): Promise<Response> {
  return fetch(`${baseUrl}/v1/public/${path}`, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body,
  });
}

/** 10,000 tasks into the empty project, a batch of 100 at a time, one request after the other. */
async function importTasks(baseUrl: string, seeded: SeededWorkspace, progress: (at: number) => void) {
  const started = Date.now();
  let failed = 0;
  for (let from = 0; from < IMPORT_TASKS; from += BATCH) {
    const response = await post(baseUrl, seeded.apiKey, 'import/tasks/batch', batchBody(from));
    await response.arrayBuffer();
    if (response.status !== 201) failed++;
    if ((from + BATCH) % 2_000 === 0) progress(from + BATCH);
  }
  return { seconds: (Date.now() - started) / 1000, failed };
}

/** Statements of a batch create, a batch update, and the single writes beside them, counted through the proxy. */
async function countImportStatements(options: ScaleOptions, url: string, seeded: SeededWorkspace) {
  const counter = await startStatementCounter(url);
  const server = await options.startServer(counter.url);
  const counts: Record<string, number> = {};
  try {
    const count = async (name: string, send: () => Promise<Response>) => {
      for (let i = 0; i < 3; i++) await (await send()).arrayBuffer();
      counter.take();
      const response = await send();
      await response.arrayBuffer();
      counts[name] = counter.take().length;
      if (!response.ok) throw new Error(`${name}: ${response.status}`);
    };
    const project = seeded.projects[0]!;
    await count('create', () => post(server.url, seeded.apiKey, `${project.slug}/tasks`, JSON.stringify({ title: 'one' })));
    await count(`create batch of ${BATCH}`, () => post(server.url, seeded.apiKey, `${project.slug}/tasks/batch`, batchBody(0)));
    await count('patch', () =>
      post(server.url, seeded.apiKey, `${project.slug}/tasks/${project.prefix}-1`, JSON.stringify({ priority: 'low' }), 'PATCH'),
    );
    const changes = JSON.stringify({
      tasks: Array.from({ length: BATCH }, (_, i) => ({ id: `${project.prefix}-${i + 1}`, priority: 'high', title: `Changed ${i}` })),
    });
    await count(`update batch of ${BATCH}`, () => post(server.url, seeded.apiKey, `${project.slug}/tasks/batch`, changes, 'PATCH'));
  } finally {
    await server.stop();
    await counter.close();
  }
  return counts;
}

function report(run: {
  sizes: number[];
  shapes: Shape[];
  results: Map<string, Map<number, LoadResult>>;
  imported: { seconds: number; failed: number };
  statements: Record<string, number>;
  seedSeconds: number;
  load: [number, number];
  seconds: number;
}): string {
  const [smallest] = run.sizes;
  const largest = run.sizes.at(-1)!;
  const p50 = (shape: string, size: number) => run.results.get(shape)!.get(size)!.p50;
  const lines = [
    '## Projects of a million tasks',
    '',
    `Projects of ${run.sizes.map((n) => n.toLocaleString('en')).join(', ')} top-level tasks in one database (seeded by SQL in ` +
      `${run.seedSeconds.toFixed(0)} s, then VACUUM ANALYZE), one server process, one connection, ${run.seconds} s per figure: ` +
      `p50 (p99) in ms. Load average ${run.load[0].toFixed(2)} at the start of this section, ${run.load[1].toFixed(2)} at its end.`,
    '',
    `| shape | ${run.sizes.map((n) => `${n.toLocaleString('en')} tasks`).join(' | ')} | ${largest.toLocaleString('en')} / ${smallest!.toLocaleString('en')} |`,
    `| --- | ${run.sizes.map(() => '---').join(' | ')} | --- |`,
  ];
  for (const shape of run.shapes) {
    const row = run.results.get(shape.name)!;
    const cells = run.sizes.map((size) => `${row.get(size)!.p50} (${row.get(size)!.p99})`);
    lines.push(
      `| ${shape.name} | ${cells.join(' | ')} | ${(p50(shape.name, largest) / Math.max(p50(shape.name, smallest!), 0.01)).toFixed(2)} |`,
    );
  }
  const aims: [string, boolean, string][] = [];
  for (const shape of run.shapes.filter((s) => s.firstPage)) {
    const ratio = p50(shape.name, largest) / Math.max(p50(shape.name, smallest!), 1);
    aims.push([
      `${shape.name}: ${largest.toLocaleString('en')} within 2× of ${smallest!.toLocaleString('en')}`,
      ratio <= 2,
      `${p50(shape.name, largest)} vs ${p50(shape.name, smallest!)} ms`,
    ]);
  }
  const first = p50('first page', smallest!);
  aims.push([`first page of ${smallest!.toLocaleString('en')} at most 3 ms`, first <= 3, `${first} ms`]);
  for (const [deep, base] of [
    [`cursor at ${DEEP * 100}% (newest first)`, 'first page'],
    [`cursor at ${DEEP * 100}% (change order, limit 100)`, 'change order, limit 100'],
  ] as const) {
    const value = p50(deep, largest);
    const against = Math.max(p50(base, largest), 1);
    aims.push([
      `${deep} within 1.5× of the first page (${largest.toLocaleString('en')})`,
      value <= 1.5 * against,
      `${value} vs ${p50(base, largest)} ms`,
    ]);
  }
  lines.push('', '| aim | met | figures |', '| --- | --- | --- |');
  for (const [aim, met, detail] of aims) lines.push(`| ${aim} | ${met ? 'met' : '**missed**'} | ${detail} |`);
  lines.push(
    '',
    `Import of ${IMPORT_TASKS.toLocaleString('en')} tasks in batches of ${BATCH}, one request after the other: ` +
      `${run.imported.seconds.toFixed(1)} s (${run.imported.failed} batches refused), ${IMPORT_TASKS / BATCH} requests: ` +
      `under a limit of 60 requests a minute, ${Math.ceil(IMPORT_TASKS / BATCH / 60)} minutes instead of ${Math.ceil(IMPORT_TASKS / 60)}.`,
    '',
    `Statements per request, key lookup included: ${Object.entries(run.statements)
      .map(([name, n]) => `${name} ${n}`)
      .join(', ')}.`,
    '',
  );
  return lines.join('\n');
}
