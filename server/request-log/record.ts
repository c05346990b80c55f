import { storedAsText } from '../db/storable';
import { MAX_USER_AGENT } from '../schemas/audit';
import { MAX_ERROR_MESSAGE } from '../schemas/common';
import { MAX_PATH } from '../schemas/request-log';
import type { CountedRequest } from '../usage/minutes';

/** One request of a key or an app as the request log keeps it: no body, no header that may hold a secret. */
export interface RequestRecord extends CountedRequest {
  /** The row's own id, which orders requests of the same millisecond (an MCP POST's tool calls share a request id). */
  id: string;
  path: string;
  /** The X-Request-Id the request was answered with. */
  requestId: string;
  idempotencyKey: string | null;
  /** The answer was the one stored for the Idempotency-Key, sent again. */
  replayed: boolean;
  ip: string;
  userAgent: string | null;
  /** The error message of a 4xx or 5xx answer. */
  message: string | null;
}

// What one record may hold of what the client chose to send (the buffer's bound counts on it),
// as the request log's answers declare it.
const MAX_MESSAGE = MAX_ERROR_MESSAGE;

/**
 * The record with the client's free text cut to its bounds and storable. A message
 * may quote what was sent (a field's name), U+0000 included, which PostgreSQL text
 * cannot hold: the statement would fail, and with it every record of its batch.
 */
export function bounded(record: RequestRecord): RequestRecord {
  return {
    ...record,
    route: storedAsText(record.route),
    path: storedAsText(record.path.slice(0, MAX_PATH)),
    idempotencyKey: record.idempotencyKey === null ? null : storedAsText(record.idempotencyKey),
    userAgent: record.userAgent === null ? null : storedAsText(record.userAgent.slice(0, MAX_USER_AGENT)),
    message: record.message === null ? null : storedAsText(record.message.slice(0, MAX_MESSAGE)),
  };
}

/** About what the record takes in memory, in characters. */
export function sizeOf(record: RequestRecord): number {
  return (
    400 +
    record.path.length +
    record.route.length +
    (record.userAgent?.length ?? 0) +
    (record.message?.length ?? 0) +
    (record.idempotencyKey?.length ?? 0)
  );
}
