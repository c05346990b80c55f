/**
 * The one error type of the domain. Each kind has one HTTP status, mapped in
 * server/api/errors.ts; the admin CLI maps the client kinds to exit code 2.
 */
export type AppErrorKind =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'request_timeout'
  | 'conflict'
  | 'precondition_failed'
  | 'payload_too_large'
  | 'unprocessable'
  | 'unsupported_media_type'
  | 'too_many_requests'
  | 'unavailable';

export class AppError extends Error {
  constructor(
    readonly kind: AppErrorKind,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'AppError';
  }
}

/** A 429 that knows when to try again: its answer carries Retry-After. */
export class TooManyAttempts extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('too_many_requests', message);
  }
}

export const badRequest = (message: string) => new AppError('bad_request', message);
export const notFound = (message: string) => new AppError('not_found', message);
export const conflict = (message: string) => new AppError('conflict', message);
export const forbidden = (message: string) => new AppError('forbidden', message);

function prismaCode(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
}

type AdapterCause = { kind?: unknown; code?: unknown } | undefined;

/** What the pg adapter says of a failed statement (under Prisma's P2010 for a raw one). */
function adapterCause(error: unknown): AdapterCause {
  return (error as { meta?: { driverAdapterError?: { cause?: AdapterCause } } } | null)?.meta?.driverAdapterError?.cause;
}

/** Prisma's errors that callers turn into answers: a duplicate, a missing parent row, a missing record. */
export const isUniqueViolation = (error: unknown) => prismaCode(error) === 'P2002';
export const isForeignKeyViolation = (error: unknown) =>
  prismaCode(error) === 'P2003' || (prismaCode(error) === 'P2010' && adapterCause(error)?.kind === 'ForeignKeyConstraintViolation');
export const isRecordMissing = (error: unknown) => prismaCode(error) === 'P2025';

/** What `work` answers, or null when the record it changes was not there (as its condition asked). */
export function nullIfMissing<T>(work: Promise<T>): Promise<T | null> {
  return work.catch((error: unknown) => {
    if (isRecordMissing(error)) return null;
    throw error;
  });
}

const UNAVAILABLE_MESSAGE = 'Service temporarily unavailable';

// How Prisma 7 and @prisma/adapter-pg report a database that cannot be reached:
// Prisma's connection codes (P1001 can't reach, P1002 and P1008 timed out, P1017
// closed by the server, P2024 no pooled connection in time), the adapter's error
// kinds, PostgreSQL's SQLSTATEs for connections (class 08, and 57P01-57P03: shut
// down, crashed, starting up; 53300 too many connections) and pg's own plain errors,
// which the adapter passes through unconverted. A client's own socket errors (an
// upload cut short) are not among them.
const UNAVAILABLE_PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
const UNAVAILABLE_ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123]|53300)$/;
const UNAVAILABLE_DRIVER_MESSAGES = [
  'Connection terminated unexpectedly',
  'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  // No answer to a statement in time (server/db/pool.ts): held in a pooler's queue, or a server that hangs.
  'Query read timeout',
];

/**
 * The one place that tells a database that cannot be reached (or gives no
 * connection in time) from a failed statement: such an error, or one caused by
 * it, becomes the kind `unavailable` (503 with Retry-After); anything else null.
 */
export function asUnavailable(error: unknown): AppError | null {
  for (let cause = error, depth = 0; cause && depth < 5; cause = (cause as { cause?: unknown }).cause, depth++) {
    if (cause instanceof AppError) return cause.kind === 'unavailable' ? cause : null;
    if (isConnectionFailure(cause)) return new AppError('unavailable', UNAVAILABLE_MESSAGE, { cause: error });
  }
  return null;
}

function isConnectionFailure(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && UNAVAILABLE_PRISMA_CODES.has(code)) return true;
  const adapter = adapterCause(error) ?? ((error as { cause?: unknown }).cause as AdapterCause);
  if (typeof adapter?.kind === 'string' && UNAVAILABLE_ADAPTER_KINDS.has(adapter.kind)) return true;
  if (adapter?.kind === 'postgres' && typeof adapter.code === 'string' && UNAVAILABLE_SQLSTATE.test(adapter.code)) return true;
  if (typeof code === 'string' && UNAVAILABLE_SQLSTATE.test(code) && 'severity' in error) return true;
  return typeof message === 'string' && UNAVAILABLE_DRIVER_MESSAGES.includes(message);
}
