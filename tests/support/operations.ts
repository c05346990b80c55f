/**
 * The twelve operations of the spec, the extension listing deleted tasks, the two batch writes and the
 * two steps of the direct upload, as `METHOD /path` below /v1/public.
 */
export const OPERATIONS = [
  'GET /{projectSlug}/statuses',
  'GET /{projectSlug}/labels',
  'GET /{projectSlug}/members',
  'GET /{projectSlug}/tasks',
  'POST /{projectSlug}/tasks',
  'POST /{projectSlug}/tasks/batch',
  'PATCH /{projectSlug}/tasks/batch',
  'GET /{projectSlug}/tasks/deleted',
  'GET /{projectSlug}/tasks/{taskId}',
  'PATCH /{projectSlug}/tasks/{taskId}',
  'DELETE /{projectSlug}/tasks/{taskId}',
  'GET /{projectSlug}/tasks/{taskId}/comments',
  'POST /{projectSlug}/tasks/{taskId}/comments',
  'GET /{projectSlug}/tasks/{taskId}/attachments/{attachmentId}',
  'POST /{projectSlug}/tasks/{taskId}/attachments',
  'POST /{projectSlug}/tasks/{taskId}/attachments/uploads',
  'POST /{projectSlug}/tasks/{taskId}/attachments/uploads/{uploadId}/complete',
];
