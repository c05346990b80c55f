export { TaskApi } from './client.js';
export {
  AuthenticationError,
  ConflictError,
  ConnectionError,
  IdempotencyError,
  NotFoundError,
  NotModifiedError,
  PermissionError,
  PreconditionFailedError,
  RateLimitedError,
  ServerError,
  TaskApiError,
  TooLargeError,
  ValidationError,
  WebhookVerificationError,
} from './errors.js';
export type { LastResponse, RequestEvent, RequestOptions, ResponseEvent, TaskApiOptions } from './transport.js';
export type { Attachment, Comment, PageCall, Params, Resources, Schemas, Task, WebhookEvent, WithResponse } from './types.js';
export type { FileInput, UploadOptions } from './uploads.js';
export { verifyWebhook, type HeadersInput, type VerifyOptions } from './webhooks.js';
export { MAX_UPLOAD_BYTES } from './generated/operations.js';
export { VERSION } from './version.js';
export type { components, operations, paths, webhooks } from './generated/openapi.js';
