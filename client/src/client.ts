import { buildResources } from './resources.js';
import { Transport, type RequestEvent, type ResponseEvent, type TaskApiOptions } from './transport.js';
import type { Attachment, Resources, WithResponse } from './types.js';
import { DIRECT_UPLOAD_ABOVE, upload, type FileInput, type UploadOptions } from './uploads.js';

interface Events {
  request: RequestEvent;
  response: ResponseEvent;
}

class Client {
  /** The API's root every path is under. */
  readonly baseUrl: string;
  private readonly transport: Transport;

  constructor(options: TaskApiOptions) {
    this.transport = new Transport(options);
    this.baseUrl = this.transport.baseUrl;
    const resources = buildResources(this.transport);
    const directAbove = options.directUploadAbove ?? DIRECT_UPLOAD_ABOVE;
    Object.assign(resources.attachments, {
      upload: (target: { project: string; task: string }, file: FileInput, uploadOptions?: UploadOptions) =>
        upload(resources, this.transport, directAbove, target, file, uploadOptions),
    });
    Object.assign(this, resources);
  }

  /** Calls `listener` as each attempt is sent (`request`) or answered or failed (`response`), retries included. */
  on<E extends keyof Events>(event: E, listener: (event: Events[E]) => void): this {
    this.transport.on(event, listener as never);
    return this;
  }

  off<E extends keyof Events>(event: E, listener: (event: Events[E]) => void): this {
    this.transport.off(event, listener as never);
    return this;
  }
}

export type TaskApi = Client &
  Resources & {
    attachments: Resources['attachments'] & {
      /**
       * Attaches a file (a Blob or File, bytes, or on Node.js a path) to a task, as one
       * multipart request or, above `directUploadAbove`, by the direct upload.
       */
      upload(target: { project: string; task: string }, file: FileInput, options?: UploadOptions): Promise<WithResponse<Attachment>>;
    };
  };

/** The API, one instance per credential: `new TaskApi({ apiKey, baseUrl })`. */
export const TaskApi = Client as new (options: TaskApiOptions) => TaskApi;
