/**
 * The twelve operations of the spec, the extension listing deleted tasks, the two batch writes, the
 * two steps of the direct upload, the workspace's audit log and its export, its request log, the
 * caller's own requests and usage, who the caller is and its projects, as `METHOD /path` below /v1/public.
 */
export const PROJECT_OPERATIONS = [
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
  'GET /requests/mine',
  'GET /requests',
  'GET /usage',
  'GET /me',
  'GET /projects',
];

/** The workspace's webhook endpoints and their deliveries, managed through the API (no MCP tools). */
export const WEBHOOK_OPERATIONS = [
  'GET /webhooks/endpoints',
  'POST /webhooks/endpoints',
  'GET /webhooks/endpoints/{endpointId}',
  'PATCH /webhooks/endpoints/{endpointId}',
  'DELETE /webhooks/endpoints/{endpointId}',
  'POST /webhooks/endpoints/{endpointId}/rotate-secret',
  'POST /webhooks/endpoints/{endpointId}/test',
  'GET /webhooks/endpoints/{endpointId}/deliveries',
  'POST /webhooks/endpoints/{endpointId}/deliveries/{deliveryId}/redeliver',
];

/** Every operation of the OpenAPI document: the projects', and the workspace's audit log and webhooks (no MCP tools). */
export const OPERATIONS = [...PROJECT_OPERATIONS, 'GET /audit-events', 'GET /audit-events/export', ...WEBHOOK_OPERATIONS];
