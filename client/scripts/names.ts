/**
 * The client's name of each operation is its operationId read as `<namespace>-<method>`
 * (`tasks-list` is `api.tasks.list`). These are the exceptions: names the API's users
 * know from Stripe and Octokit, or that leave room for a method the client adds itself.
 */
export const RENAMED: Record<string, string> = {
  'tasks-createBatch': 'tasks.createMany',
  'tasks-updateBatch': 'tasks.updateMany',
  'comments-add': 'comments.create',
  'attachments-upload': 'attachments.uploadMultipart',
  'uploads-create': 'attachments.createUpload',
  'uploads-complete': 'attachments.completeUpload',
};

/** Methods the client writes itself (src/client.ts): no operation may take their names. */
export const CLIENT_METHODS = ['attachments.upload'];

/** The operation whose body announces a direct upload: its `size` maximum is the largest file the API takes. */
export const DIRECT_UPLOAD = 'attachments.createUpload';
