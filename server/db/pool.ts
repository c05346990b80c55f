import { attachDatabasePool } from '@vercel/functions';
import pg from 'pg';

/**
 * How long a request may wait for a pooled connection, and for any one statement's
 * answer. Past either, it fails and answers 503 (server/errors.ts, asUnavailable).
 * The statement bound matters behind a transaction-mode pooler, which accepts the
 * connection at once and then holds the statement in its own queue (Neon's for up
 * to 120 s): without a bound of ours the request would hang there.
 */
export const CONNECT_TIMEOUT_MS = 10_000;
export const STATEMENT_TIMEOUT_MS = 15_000;

/**
 * An idle connection is closed after this: a pooler, or a database that suspends,
 * keeps no connection of an instance that has gone quiet (Vercel suspends functions
 * between requests; attachDatabasePool waits for this before letting it suspend).
 */
const IDLE_TIMEOUT_MS = 5_000;

const READ_TIMEOUT_MESSAGE = 'Query read timeout';

/**
 * pg gives up on a statement after `query_timeout` but keeps the connection, its
 * statement still queued at the server: the next request handed that connection
 * would wait behind it. A connection whose statement timed out is closed instead,
 * so the pool replaces it.
 */
class BoundedClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    // pg's query() has many overloads; each is passed through unchanged.
    const query = this.query.bind(this) as (...args: unknown[]) => unknown;
    this.query = ((...args: unknown[]) => {
      const result = query(...args);
      if (result instanceof Promise) {
        result.catch((error: unknown) => {
          if ((error as Error | null)?.message === READ_TIMEOUT_MESSAGE) void this.end().catch(() => {});
        });
      }
      return result;
    }) as pg.Client['query'];
  }
}

export interface PoolOptions {
  url: string;
  max: number;
  /** How the connections are named to PostgreSQL (pg_stat_activity), so each pool can be counted. */
  applicationName: string;
  onError(error: Error): void;
  /** STATEMENT_TIMEOUT_MS unless given (tests). */
  statementTimeoutMs?: number;
}

/**
 * A pool of connections with the process's bounds. Every connection's errors are
 * heard (a database restart ends idle and busy ones alike, and an unheard 'error'
 * ends the process). On Vercel the pool is attached to the function, so that its
 * idle connections are closed before the instance is suspended.
 */
export function createPool(options: PoolOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.max,
    Client: BoundedClient,
    application_name: options.applicationName,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    query_timeout: options.statementTimeoutMs ?? STATEMENT_TIMEOUT_MS,
    idleTimeoutMillis: IDLE_TIMEOUT_MS,
  });
  pool.on('error', options.onError);
  pool.on('connect', (client) => client.on('error', options.onError));
  if (onVercelFunction()) attachDatabasePool(pool);
  return pool;
}

/**
 * What @vercel/functions checks on each release before it holds the function for
 * the idle timeout. Asked once here: off Vercel its listener did nothing but read
 * the two variables, twice a request (0.5% of a read's CPU on npm start).
 */
function onVercelFunction(): boolean {
  return Boolean(process.env.VERCEL_URL && process.env.VERCEL_REGION);
}

/** One connection of its own for a few statements (migrations' checks, tests' set-up), closed after `work`. */
export async function withConnection<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
