import { TRPCError } from '@trpc/server';
import type { z } from 'zod';
import { BODY_NOT_JSON, BODY_TOO_LARGE, INTERNAL_ERROR_MESSAGE, JSON_CONTENT_TYPE } from './messages';
import { AppError, asUnavailable, type AppErrorKind } from '../errors';
import { logEvent, logThrottled } from '../log';
import { MAX_ERROR_MESSAGE } from '../schemas/common';

/** The body of every error response: `{statusCode, message}` and nothing else. */
export interface PublicError {
  statusCode: number;
  message: string;
}

const STATUS: Record<AppErrorKind, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  too_many_requests: 429,
  unavailable: 503,
};

// Errors tRPC or trpc-to-openapi raise by themselves, before our code runs.
const FRAMEWORK: Partial<Record<TRPCError['code'], PublicError>> = {
  PARSE_ERROR: { statusCode: 400, message: BODY_NOT_JSON },
  NOT_FOUND: { statusCode: 404, message: 'Not found' },
  METHOD_NOT_SUPPORTED: { statusCode: 405, message: 'Method not allowed' },
  UNSUPPORTED_MEDIA_TYPE: { statusCode: 415, message: JSON_CONTENT_TYPE },
  PAYLOAD_TOO_LARGE: { statusCode: 413, message: BODY_TOO_LARGE },
};

export const INTERNAL_ERROR: PublicError = { statusCode: 500, message: INTERNAL_ERROR_MESSAGE };

export function appErrorToPublic(error: AppError): PublicError {
  return { statusCode: STATUS[error.kind], message: error.message };
}

/**
 * The one mapping from anything thrown to what the client sees. Unknown errors
 * become a generic 500; the caller logs the details with the request id. A message
 * longer than the contract's bound (many fields refused at once, a long value named)
 * is cut there.
 */
export function toPublicError(error: unknown): PublicError {
  const { statusCode, message } = publicErrorOf(error);
  const chars = [...message];
  return { statusCode, message: chars.length > MAX_ERROR_MESSAGE ? `${chars.slice(0, MAX_ERROR_MESSAGE - 1).join('')}…` : message };
}

function publicErrorOf(error: unknown): PublicError {
  if (error instanceof AppError) return appErrorToPublic(error);
  if (error instanceof TRPCError) {
    if (error.cause instanceof AppError) return appErrorToPublic(error.cause);
    if (isZodError(error.cause)) return { statusCode: 400, message: describeIssues(error.cause.issues) };
    const known = FRAMEWORK[error.code];
    if (known) return known;
  }
  const unavailable = asUnavailable(error);
  return unavailable ? appErrorToPublic(unavailable) : INTERNAL_ERROR;
}

// While the database is away every request fails alike: one line per interval, with their count.
const OUTAGE_LOG_INTERVAL_MS = 10_000;

/**
 * toPublicError for a request that is answering now: a 5xx hides its cause from
 * the client, so the cause goes to the log under `event` with the given fields;
 * an unreachable database is logged once per interval with a count instead.
 */
export function answerError(error: unknown, event: string, fields: Record<string, unknown>): PublicError {
  const publicError = toPublicError(error);
  const cause = error instanceof TRPCError ? (error.cause ?? error) : error;
  if (publicError.statusCode === 503) {
    const outage = asUnavailable(cause);
    // The server's own 503 (its body budget full) has no cause to show; both are counted, not traced.
    if (outage?.cause !== undefined) logThrottled('database.unavailable', OUTAGE_LOG_INTERVAL_MS, { error: outage.cause });
    else logThrottled('server.busy', OUTAGE_LOG_INTERVAL_MS, { message: publicError.message });
  } else if (publicError.statusCode >= 500) {
    logEvent('error', event, { ...fields, error: cause });
  }
  return publicError;
}

function isZodError(value: unknown): value is z.ZodError {
  return value instanceof Error && value.name === 'ZodError' && Array.isArray((value as z.ZodError).issues);
}

/** `title: must be 1 to 500 characters; priority: must be one of none, low, …` */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  // One rule can fail twice (a format check and a refinement of it): say it once.
  return [...new Set(issues.map(describeIssue))].join('; ');
}

function describeIssue(issue: z.core.$ZodIssue): string {
  // tasks[3].title: an item of a list by its index, as a JSON path names it.
  const field = issue.path.map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i > 0 ? '.' : ''}${String(part)}`)).join('');
  const at = (text: string) => (field ? `${field}: ${text}` : text);
  switch (issue.code) {
    case 'unrecognized_keys': {
      const names = issue.keys.map((key) => (field ? `${field}.${key}` : key));
      return `Unknown field${names.length > 1 ? 's' : ''}: ${names.join(', ')}`;
    }
    case 'invalid_type': {
      // Zod does not report the input; its default message says what it received.
      if (!issue.message.startsWith('Invalid input')) return at(issue.message);
      if (issue.message.endsWith('received undefined')) return at('is required');
      if (issue.message.endsWith('received null')) return at('must not be null');
      return at(`must be ${article(issue.expected)}`);
    }
    case 'invalid_value':
      return at(issue.message.startsWith('Invalid option') ? `must be one of ${issue.values.map(String).join(', ')}` : issue.message);
    default:
      return at(issue.message);
  }
}

function article(expected: string): string {
  if (expected === 'array') return 'an array';
  if (expected === 'object') return 'an object';
  if (expected === 'int') return 'a whole number';
  return `a ${expected}`;
}
