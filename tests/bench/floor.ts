import { createHash, randomUUID } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';
import { findKey, pageIds, taskById, taskByNumber, tasksByIds, type KeyRow, type ProjectRow, type TaskFilter } from './floor-queries';
import type { Prisma } from '../../server/db/generated/client';
import { addCommentStatement, toComment, type CommentRow } from '../../server/comments/comments';
import { isWellFormedKey } from '../../server/keys/key-format';
import type { ProjectRef } from '../../server/projects/types';
import type { CreateTaskFields, UpdateTaskFields } from '../../server/schemas/task';
import { createStatement } from '../../server/tasks/create';
import { taskCondition } from '../../server/tasks/locate';
import { toTask, type TaskRow } from '../../server/tasks/shape';
import { stampInStatement, stampTaken } from '../../server/tasks/stamp';
import { updateStatement } from '../../server/tasks/update';

/**
 * The floor: the endpoints the benchmark drives (list, get, create, patch, comment),
 * served by node:http and pg with the product's statements and JSON — the writes'
 * statements are the product's own builders' — and nothing else: no framework, no
 * validation, no rate limiter. What the product costs above this
 * is what its layers cost. Started by run.ts as its own process: FLOOR_PORT,
 * DATABASE_URL, DATABASE_POOL_SIZE.
 */

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });
const LIST = /^\/v1\/public\/([^/]+)\/tasks\/?$/;
const GET = /^\/v1\/public\/([^/]+)\/tasks\/([^/]+)$/;
const COMMENTS = /^\/v1\/public\/([^/]+)\/tasks\/([^/]+)\/comments$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

const server = http.createServer((req, res) => {
  handle(req)
    .then(({ status, body }) => send(res, status, body))
    .catch((error: unknown) => {
      if (error instanceof HttpError) return send(res, error.statusCode, { statusCode: error.statusCode, message: error.message });
      console.error(error);
      send(res, 500, { statusCode: 500, message: 'Internal server error' });
    });
});
server.listen(Number(process.env.FLOOR_PORT), '127.0.0.1');

function send(res: http.ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

async function handle(req: http.IncomingMessage): Promise<{ status: number; body: unknown }> {
  const url = new URL(req.url ?? '/', 'http://floor');
  if (url.pathname === '/ready') return { status: 200, body: { ok: true } };
  const list = LIST.exec(url.pathname);
  const item = GET.exec(url.pathname);
  const comments = COMMENTS.exec(url.pathname);
  if (req.method === 'GET' && list) {
    const { project } = await admit(req.headers.authorization, decodeURIComponent(list[1]!), 'task:read');
    return { status: 200, body: await listTasks(project, url.searchParams) };
  }
  if (req.method === 'GET' && item) {
    const { project } = await admit(req.headers.authorization, decodeURIComponent(item[1]!), 'task:read');
    return { status: 200, body: await getTask(project, decodeURIComponent(item[2]!)) };
  }
  if (req.method === 'POST' && list) {
    const { key, project } = await admit(req.headers.authorization, decodeURIComponent(list[1]!), 'task:create');
    return { status: 201, body: await createTask(key, project, await readJson(req)) };
  }
  if (req.method === 'PATCH' && item) {
    const { key, project } = await admit(req.headers.authorization, decodeURIComponent(item[1]!), 'task:update');
    return { status: 200, body: await updateTask(key, project, decodeURIComponent(item[2]!), await readJson(req)) };
  }
  if (req.method === 'POST' && comments) {
    const { key, project } = await admit(req.headers.authorization, decodeURIComponent(comments[1]!), 'task:update');
    return { status: 201, body: await addComment(key, project, decodeURIComponent(comments[2]!), await readJson(req)) };
  }
  throw new HttpError(404, 'Not found');
}

// The floor validates nothing: the benchmark sends well-formed bodies.
async function readJson<T>(req: http.IncomingMessage): Promise<T> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as T;
}

async function admit(authorization: string | undefined, slug: string, scope: string): Promise<{ key: KeyRow; project: ProjectRow }> {
  const presented = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
  const key =
    presented && isWellFormedKey(presented) ? await findKey(pool, createHash('sha256').update(presented).digest('hex'), slug) : undefined;
  if (!key || key.revoked_at || (key.expires_at && key.expires_at <= new Date())) throw new HttpError(401, 'Invalid API key');
  if (!key.scopes.includes(scope)) throw new HttpError(403, `Missing required scope: ${scope}`);
  const { project } = key;
  if (!project) throw new HttpError(404, 'Project not found');
  if (key.project_id !== null && key.project_id !== project.id) throw new HttpError(403, `API key does not have access to project ${slug}`);
  return { key, project };
}

async function listTasks(project: ProjectRow, query: URLSearchParams) {
  const page = Number(query.get('page') ?? 1);
  const limit = Number(query.get('limit') ?? 20);
  const filter: TaskFilter = {
    category: query.get('status') ?? undefined,
    priority: query.get('priority') ?? undefined,
    labelId: query.get('labelId') ?? undefined,
  };
  const search = query.get('search');
  if (search !== null) {
    filter.titleContains = search.replace(/[\\%_]/g, (char) => `\\${char}`);
    filter.number = externalIdNumber(project, search);
  }
  const { ids, total } = await pageIds(pool, project.id, filter, limit, (page - 1) * limit);
  const rows = ids.length ? await tasksByIds(pool, ids) : [];
  const totalPages = Math.ceil(total / limit);
  return {
    tasks: rows.map((row) => toTask(row, project.key_prefix)),
    meta: { total, page, limit, totalPages, hasMore: page < totalPages },
  };
}

async function getTask(project: ProjectRow, taskId: string) {
  const number = externalIdNumber(project, taskId);
  const rows = UUID.test(taskId)
    ? await taskById(pool, project.id, taskId.toLowerCase())
    : number === undefined
      ? []
      : await taskByNumber(pool, project.id, number);
  if (rows.length === 0) throw new HttpError(404, 'Task not found');
  return toTask(rows[0]!, project.key_prefix);
}

function externalIdNumber(project: ProjectRow, text: string): number | undefined {
  const match = /^\s*([A-Za-z][A-Za-z0-9]*)-(\d{1,9})\s*$/.exec(text);
  return match && match[1]!.toUpperCase() === project.key_prefix ? Number(match[2]) : undefined;
}

const ref = (project: ProjectRow): ProjectRef => ({ id: project.id, slug: project.slug, keyPrefix: project.key_prefix });

/** A statement the product built, sent through pg as it is. */
async function run<T extends pg.QueryResultRow>(client: pg.Pool | pg.PoolClient, statement: Prisma.Sql): Promise<T> {
  const { rows } = await client.query<T>(statement.text, statement.values);
  return rows[0]!;
}

/** BEGIN, the product's statements, COMMIT: as its interactive transactions send them. */
async function inTransaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

async function createTask(key: KeyRow, project: ProjectRow, input: CreateTaskFields) {
  const row = await inTransaction((client) => run<TaskRow>(client, createStatement(key.workspace_id, ref(project), input, randomUUID())));
  return toTask(row, project.key_prefix);
}

async function updateTask(key: KeyRow, project: ProjectRow, taskId: string, input: UpdateTaskFields) {
  const condition = taskCondition(ref(project), taskId);
  if (!condition) throw new HttpError(404, 'Task not found');
  const row = await inTransaction(async (client) => {
    const update = (stamp: Prisma.Sql) =>
      run<TaskRow & { fresh: boolean; changed_at: Date }>(client, updateStatement(key.workspace_id, ref(project), condition, input, stamp));
    const first = await update(stampInStatement(project.id));
    return first.fresh ? first : update(stampTaken(first.changed_at));
  });
  return toTask(row, project.key_prefix);
}

async function addComment(key: KeyRow, project: ProjectRow, taskId: string, input: { content?: string }) {
  const condition = taskCondition(ref(project), taskId);
  if (!condition) throw new HttpError(404, 'Task not found');
  const row = await run<CommentRow>(
    pool,
    addCommentStatement({ keyId: key.id, keyName: key.name }, ref(project), condition, input.content ?? '', true),
  );
  return toComment(row);
}
