import type { Scope } from '../keys/scopes';

/**
 * The fixed messages of the public API's errors, in one place: the server answers
 * with them and the OpenAPI document lists them (operation.ts), so the two cannot
 * drift apart. Messages of validation errors name the field and the rule instead.
 */
export const INVALID_KEY = 'Invalid API key';
export const TOO_MANY_REQUESTS = 'Too many requests';
export { PROJECT_NOT_FOUND } from '../projects/types';
export const missingScope = (scope: Scope) => `Missing required scope: ${scope}`;
export const outsideProjectScope = (slug: string) => `API key does not have access to project ${slug}`;
export const WORKSPACE_KEY_NEEDED =
  "API key is limited to one project; the workspace's audit log, request log, usage and webhooks need a key for every project";
export const EXPORT_STREAMED = 'The export is served as a stream over REST only';
export const INTERNAL_ERROR_MESSAGE = 'Internal server error';
export const SERVICE_UNAVAILABLE = 'Service temporarily unavailable';

/** Longer request targets answer 414 (Node's own limit, on the whole head, is 16 KiB). */
export const MAX_TARGET_LENGTH = 8 * 1024;
export const TARGET_TOO_LONG = `Request target longer than ${MAX_TARGET_LENGTH} characters`;
export const HEADERS_TOO_LARGE = 'Request header fields too large';

export const MAX_JSON_VALUES = 1_000;
export const BODY_TOO_LARGE = 'Request body too large';
/** A request body must have arrived whole this long after its head; an upload's file, within UPLOAD_DEADLINE_S. */
export const BODY_DEADLINE_S = 30;
export const UPLOAD_DEADLINE_S = 120;
export const BODY_TOO_SLOW = `Request body not received in time: a body must arrive within ${BODY_DEADLINE_S} s, a file upload within ${UPLOAD_DEADLINE_S} s`;
export const ANSWERS_TOO_LARGE_MIB = 32;
export const ANSWERS_TOO_LARGE = `The answers of one request may hold at most ${ANSWERS_TOO_LARGE_MIB} MiB of text together: send this call in a request of its own`;
export const JSON_CONTENT_TYPE = 'Content-Type must be application/json';
export const BODY_NOT_JSON = 'Request body is not valid JSON';
export const BODY_NOT_OBJECT = 'Request body must be a JSON object';
export const bodyTooManyValues = (max: number) => `Request body holds more than ${max} JSON values`;
export const BODY_TOO_MANY_VALUES = bodyTooManyValues(MAX_JSON_VALUES);
export const unknownFields = (names: string[]) => `Unknown field${names.length > 1 ? 's' : ''}: ${names.join(', ')}`;

export const UPLOAD_AS_MULTIPART = 'Upload the file as multipart/form-data with one part named file';
export const MULTIPART_MALFORMED = 'Request body is not valid multipart/form-data';
export const MULTIPART_INCOMPLETE = 'Request body ended before the upload was complete';
export const filePartRequired = (field: string) => `${field}: a file part named ${field} is required`;
export const oneFilePartOnly = (field: string) => `${field}: only one file part is allowed`;
export { fileTooLarge } from '../attachments/limits';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const IDEMPOTENCY_KEY_INVALID = 'Idempotency-Key: must be 1 to 255 printable ASCII characters';
export const IDEMPOTENCY_KEY_REUSED = 'Idempotency-Key was already used for a different request';
export const IDEMPOTENCY_KEY_ARGUMENT_INVALID = 'idempotencyKey: must be 1 to 255 printable ASCII characters';
export const IDEMPOTENCY_KEY_ARGUMENT_DIFFERS = 'idempotencyKey: differs from the Idempotency-Key header';
export const IDEMPOTENCY_KEY_BATCH =
  'Idempotency-Key: the header names one tools/call; give each call of a batch its own idempotencyKey argument';
export const IDEMPOTENCY_KEY_IN_PROGRESS = 'Idempotency-Key: a request with this key is still being processed; retry it shortly';
