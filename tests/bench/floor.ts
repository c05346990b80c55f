import { randomUUID } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';
import { rawStatementsDb, send } from './floor-db';
import { appErrorToPublic } from '../../server/api/errors';
import { INVALID_KEY, missingScope, outsideProjectScope, PROJECT_NOT_FOUND } from '../../server/api/messages';
import { authenticateKey, type ApiPrincipal, type KeyProject } from '../../server/auth/api-key';
import { addCommentStatement, toComment, type CommentRow } from '../../server/comments/comments';
import type { Prisma } from '../../server/db/generated/client';
import { AppError, forbidden, notFound } from '../../server/errors';
import type { Scope } from '../../server/keys/scopes';
import type { ProjectRef } from '../../server/projects/types';
import type { CreateTaskFields, ListTasksQuery, UpdateTaskFields } from '../../server/schemas/task';
import { createStatement } from '../../server/tasks/create';
import { getTask, TASK_NOT_FOUND } from '../../server/tasks/get';
import { listTasks, type ListTasksInput } from '../../server/tasks/list';
import { taskCondition } from '../../server/tasks/locate';
import { toTask, type TaskRow } from '../../server/tasks/shape';
import { stampInStatement, stampTaken } from '../../server/tasks/stamp';
import { updateStatement } from '../../server/tasks/update';

/**
 * The floor: the endpoints the benchmark drives (list, get, create, patch, comment),
 * served by node:http and pg with the product's statements and JSON, and nothing
 * else: no framework, no validation, no rate limiter, no Prisma client. The reads
 * are the product's own functions (authenticateKey, listTasks, getTask) on a pg
 * pool (floor-db.ts); the writes' statements are the product's own builders'. So
 * the floor sends what the product sends (run.ts compares the two, statement by
 * statement, before it measures), and what the product costs above this is what
 * its layers cost. Started by run.ts as its own process: FLOOR_PORT, DATABASE_URL,
 * DATABASE_POOL_SIZE.
 */

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });
const db = rawStatementsDb(pool);
const LIST = /^\/v1\/public\/([^/]+)\/tasks\/?$/;
const GET = /^\/v1\/public\/([^/]+)\/tasks\/([^/]+)$/;
const COMMENTS = /^\/v1\/public\/([^/]+)\/tasks\/([^/]+)\/comments$/;

const server = http.createServer((req, res) => {
  handle(req)
    .then(({ status, body }) => answer(res, status, body))
    .catch((error: unknown) => {
      if (error instanceof AppError) return answer(res, appErrorToPublic(error).statusCode, appErrorToPublic(error));
      console.error(error);
      answer(res, 500, { statusCode: 500, message: 'Internal server error' });
    });
});
server.listen(Number(process.env.FLOOR_PORT), '127.0.0.1');

function answer(res: http.ServerResponse, status: number, body: unknown) {
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
    const slug = decodeURIComponent(list[1]!);
    const { project } = await admit(req.headers.authorization, slug, 'task:read');
    // No answer budget to wait for: the floor holds nothing but the answer it is writing.
    return { status: 200, body: await listTasks(db, project, listInput(slug, url.searchParams), () => Promise.resolve()) };
  }
  if (req.method === 'GET' && item) {
    const { project } = await admit(req.headers.authorization, decodeURIComponent(item[1]!), 'task:read');
    return { status: 200, body: await getTask(db, project, decodeURIComponent(item[2]!)) };
  }
  if (req.method === 'POST' && list) {
    const { principal, project } = await admit(req.headers.authorization, decodeURIComponent(list[1]!), 'task:create');
    return { status: 201, body: await createTask(principal, project, await readJson(req)) };
  }
  if (req.method === 'PATCH' && item) {
    const { principal, project } = await admit(req.headers.authorization, decodeURIComponent(item[1]!), 'task:update');
    return { status: 200, body: await updateTask(principal, project, decodeURIComponent(item[2]!), await readJson(req)) };
  }
  if (req.method === 'POST' && comments) {
    const { principal, project } = await admit(req.headers.authorization, decodeURIComponent(comments[1]!), 'task:update');
    return { status: 201, body: await addComment(principal, project, decodeURIComponent(comments[2]!), await readJson(req)) };
  }
  throw notFound('Not found');
}

// The floor validates nothing: the benchmark sends well-formed bodies.
async function readJson<T>(req: http.IncomingMessage): Promise<T> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as T;
}

/** The product's key lookup, and the checks the gate makes after it, in its order (server/api/access.ts). */
async function admit(
  authorization: string | undefined,
  slug: string,
  scope: Scope,
): Promise<{ principal: ApiPrincipal; project: KeyProject }> {
  const presented = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
  const found = presented ? await authenticateKey(db, presented, slug) : null;
  if (!found) throw new AppError('unauthorized', INVALID_KEY);
  const { principal, project } = found;
  if (!principal.scopes.includes(scope)) throw forbidden(missingScope(scope));
  if (!project) throw notFound(PROJECT_NOT_FOUND);
  if (principal.projectId !== null && principal.projectId !== project.id) throw forbidden(outsideProjectScope(slug));
  return { principal, project };
}

// Parameters are taken as the benchmark sends them, unchecked; a cursor (`after`) the floor does not read.
const LIST_FILTERS = ['statusId', 'status', 'priority', 'search', 'assigneeId', 'labelId'] as const;

/** The list's input as the product's schema would give it for these parameters, its defaults included (server/schemas/task.ts). */
function listInput(projectSlug: string, query: URLSearchParams): ListTasksInput {
  if (query.has('after')) throw new AppError('bad_request', 'The floor does not serve cursors');
  const input: ListTasksInput = {
    projectSlug,
    page: Number(query.get('page') ?? 1),
    limit: Number(query.get('limit') ?? 20),
    sort: (query.get('sort') ?? 'createdAt') as ListTasksQuery['sort'],
    order: (query.get('order') ?? 'desc') as ListTasksQuery['order'],
  };
  const filters = input as Record<(typeof LIST_FILTERS)[number], string | undefined>;
  for (const name of LIST_FILTERS) if (query.has(name)) filters[name] = query.get(name)!;
  const updatedSince = query.get('updatedSince');
  if (updatedSince !== null) input.updatedSince = new Date(updatedSince);
  return input;
}

/** The one row a write's statement answers. */
async function run<T extends pg.QueryResultRow>(client: pg.Pool | pg.PoolClient, statement: Prisma.Sql): Promise<T> {
  const [row] = await send<T>(client, statement);
  return row!;
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

async function createTask(principal: ApiPrincipal, project: ProjectRef, input: CreateTaskFields) {
  const row = await inTransaction((client) => run<TaskRow>(client, createStatement(principal.workspaceId, project, input, randomUUID())));
  return toTask(row, project.keyPrefix);
}

async function updateTask(principal: ApiPrincipal, project: ProjectRef, taskId: string, input: UpdateTaskFields) {
  const condition = taskCondition(project, taskId);
  if (!condition) throw notFound(TASK_NOT_FOUND);
  const row = await inTransaction(async (client) => {
    const update = (stamp: Prisma.Sql) =>
      run<TaskRow & { fresh: boolean; changed_at: Date }>(client, updateStatement(principal.workspaceId, project, condition, input, stamp));
    const first = await update(stampInStatement(project.id));
    return first.fresh ? first : update(stampTaken(first.changed_at));
  });
  return toTask(row, project.keyPrefix);
}

async function addComment(principal: ApiPrincipal, project: ProjectRef, taskId: string, input: { content?: string }) {
  const condition = taskCondition(project, taskId);
  if (!condition) throw notFound(TASK_NOT_FOUND);
  const row = await run<CommentRow>(
    pool,
    addCommentStatement({ keyId: principal.keyId, keyName: principal.keyName }, project, condition, input.content ?? '', true),
  );
  return toComment(row);
}
