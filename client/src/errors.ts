import type { Task, WithResponse } from './types.js';

/** What the client knows of the request an error belongs to. */
export interface ErrorDetails {
  statusCode?: number;
  message: string;
  requestId?: string;
  /** The answer's headers, names in lower case. */
  headers?: Record<string, string>;
  method?: string;
  /** The path under the API's root, as sent (`/web/tasks/WEB-12`). */
  path?: string;
  cause?: unknown;
}

/**
 * Every error the client throws for the API: `statusCode` (absent when no answer
 * came), `message` exactly as the server wrote it, and the `requestId` the server
 * logged it under. A subclass says which kind it is.
 */
export class TaskApiError extends Error {
  readonly statusCode: number | undefined;
  readonly requestId: string | undefined;
  readonly headers: Record<string, string>;
  readonly method: string | undefined;
  readonly path: string | undefined;

  constructor(details: ErrorDetails) {
    super(details.message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = new.target.name;
    this.statusCode = details.statusCode;
    this.requestId = details.requestId;
    this.headers = details.headers ?? {};
    this.method = details.method;
    this.path = details.path;
  }
}

/** 400 or 415: the request is not valid; the message names the field and the rule. */
export class ValidationError extends TaskApiError {}
/** 401: the key or token is missing, unknown, revoked or expired. */
export class AuthenticationError extends TaskApiError {}
/** 403: the key lacks the scope or the project. */
export class PermissionError extends TaskApiError {}
/** 404: no such project, task, attachment or upload (or not in the key's workspace). */
export class NotFoundError extends TaskApiError {}
/** 409: a limit was reached (comments, attachments of a task). */
export class ConflictError extends TaskApiError {}
/** 413: the body or file is over the limit; also thrown before sending a file that is. */
export class TooLargeError extends TaskApiError {}
/** 422: the Idempotency-Key was already used for another request. */
export class IdempotencyError extends TaskApiError {}
/** 5xx: the server failed or is unavailable, after the retries. */
export class ServerError extends TaskApiError {}
/** 304: `ifNoneMatch` named the task's current ETag; the copy held is current. */
export class NotModifiedError extends TaskApiError {}

/** 429 after the retries: `retryAfter` is the wait, in seconds, the server asked for. */
export class RateLimitedError extends TaskApiError {
  readonly retryAfter: number | undefined;

  constructor(details: ErrorDetails & { retryAfter?: number }) {
    super(details);
    this.retryAfter = details.retryAfter;
  }
}

/**
 * 412: `ifMatch` named an ETag the task no longer has. `current` is the task as it
 * is now (read again, its ETag in `current.lastResponse.headers.etag`), to merge and
 * retry with; absent for a batch, or when the task is gone.
 */
export class PreconditionFailedError<T = WithResponse<Task>> extends TaskApiError {
  current: T | undefined;

  constructor(details: ErrorDetails & { current?: T }) {
    super(details);
    this.current = details.current;
  }
}

/** No answer: the connection failed or the attempt timed out, after the retries. `cause` holds the platform's error. */
export class ConnectionError extends TaskApiError {}

/** A webhook delivery whose signature or age does not check out (verifyWebhook). */
export class WebhookVerificationError extends TaskApiError {}

const BY_STATUS: Record<number, typeof TaskApiError> = {
  304: NotModifiedError,
  400: ValidationError,
  401: AuthenticationError,
  403: PermissionError,
  404: NotFoundError,
  409: ConflictError,
  412: PreconditionFailedError,
  413: TooLargeError,
  415: ValidationError,
  422: IdempotencyError,
};

/** The error of an answer's status. */
export function errorFor(details: ErrorDetails & { statusCode: number; retryAfter?: number }): TaskApiError {
  if (details.statusCode === 429) return new RateLimitedError(details);
  const Kind = BY_STATUS[details.statusCode] ?? (details.statusCode >= 500 ? ServerError : TaskApiError);
  return new Kind(details);
}
