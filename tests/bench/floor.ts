import { createHash } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';
import { findKey, pageIds, taskById, taskByNumber, tasksByIds, type ProjectRow, type TaskFilter } from './floor-queries';
import { isWellFormedKey } from '../../server/keys/key-format';
import { toTask } from '../../server/tasks/shape';

/**
 * The floor: the two read endpoints the benchmark drives (list and get), served
 * by node:http and pg with the product's statements and JSON, and nothing else —
 * no framework, no validation, no rate limiter. What the product costs above this
 * is what its layers cost. Started by run.ts as its own process: FLOOR_PORT,
 * DATABASE_URL, DATABASE_POOL_SIZE.
 */

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });
const LIST = /^\/v1\/public\/([^/]+)\/tasks\/?$/;
const GET = /^\/v1\/public\/([^/]+)\/tasks\/([^/]+)$/;
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
    .then((body) => send(res, 200, body))
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

async function handle(req: http.IncomingMessage): Promise<unknown> {
  const url = new URL(req.url ?? '/', 'http://floor');
  if (url.pathname === '/ready') return { ok: true };
  const list = LIST.exec(url.pathname);
  const get = list ? null : GET.exec(url.pathname);
  if (req.method !== 'GET' || (!list && !get)) throw new HttpError(404, 'Not found');
  const project = await admit(req.headers.authorization, decodeURIComponent((list ?? get)![1]!));
  return list ? listTasks(project, url.searchParams) : getTask(project, decodeURIComponent(get![2]!));
}

async function admit(authorization: string | undefined, slug: string): Promise<ProjectRow> {
  const presented = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
  const key =
    presented && isWellFormedKey(presented) ? await findKey(pool, createHash('sha256').update(presented).digest('hex'), slug) : undefined;
  if (!key || key.revoked_at || (key.expires_at && key.expires_at <= new Date())) throw new HttpError(401, 'Invalid API key');
  if (!key.scopes.includes('task:read')) throw new HttpError(403, 'Missing required scope: task:read');
  const { project } = key;
  if (!project) throw new HttpError(404, 'Project not found');
  if (key.project_id !== null && key.project_id !== project.id) throw new HttpError(403, `API key does not have access to project ${slug}`);
  return project;
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
