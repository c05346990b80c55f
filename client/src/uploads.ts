import { ConflictError, TooLargeError } from './errors.js';
import { MAX_UPLOAD_BYTES } from './generated/operations.js';
import type { RequestOptions, Transport } from './transport.js';
import type { Attachment, Resources, WithResponse } from './types.js';

/** A file to attach: a Blob (or File), bytes (a Node Buffer is a Uint8Array), or on Node.js a path to read. */
export type FileInput = Blob | ArrayBuffer | Uint8Array | string;

export interface UploadOptions extends RequestOptions {
  /** The attachment's name; by default the File's name or the path's last part. */
  filename?: string;
  /** The media type; by default the Blob's, else the server derives it from the filename. */
  mimeType?: string;
}

/** Four MiB: under Vercel's 4.5 MB limit on a function's request body with room for the multipart framing. */
export const DIRECT_UPLOAD_ABOVE = 4 * 1024 * 1024;

/**
 * Attaches a file to a task the way its size needs: a file Vercel's body limit lets
 * through goes as one multipart request; a larger one by the direct upload, announced,
 * sent straight to storage, then completed. Either way the answer is the Attachment.
 * A file over the API's limit is refused before a byte is sent.
 */
export async function upload(
  resources: Resources,
  transport: Transport,
  directAbove: number,
  target: { project: string; task: string },
  input: FileInput,
  options: UploadOptions = {},
): Promise<WithResponse<Attachment>> {
  const { filename, mimeType, ...requestOptions } = options;
  const file = await asFile(input, filename, mimeType);
  if (file.size > MAX_UPLOAD_BYTES) {
    throw new TooLargeError({
      statusCode: 413,
      message: `file: ${file.name} is ${file.size} bytes; an attachment may be at most ${MAX_UPLOAD_BYTES} bytes`,
    });
  }
  if (file.size <= directAbove) return resources.attachments.uploadMultipart({ ...target, file }, requestOptions);

  const { signal, timeout, maxRetries } = requestOptions;
  const announced = await resources.attachments.createUpload(
    { ...target, filename: file.name, size: file.size, ...(file.type && { mimeType: file.type }) },
    requestOptions,
  );
  try {
    await transport.send(
      { method: announced.method, path: new URL(announced.uploadUrl, transport.baseUrl).href, headers: announced.headers, body: file },
      { signal, timeout, maxRetries },
    );
  } catch (error) {
    // A retried PUT whose first attempt arrived is refused as a second one; completing checks the bytes either way.
    if (!(error instanceof ConflictError)) throw error;
  }
  return resources.attachments.completeUpload({ ...target, upload: announced.uploadId }, { signal, timeout, maxRetries });
}

async function asFile(input: FileInput, filename: string | undefined, mimeType: string | undefined): Promise<File> {
  if (typeof input === 'string') {
    const fs = nodeModule('node:fs');
    const blob = await fs.openAsBlob(input, mimeType ? { type: mimeType } : {});
    return new File([blob], filename ?? nodeModule('node:path').basename(input), { type: blob.type });
  }
  const name = filename ?? (input instanceof File ? input.name : 'file');
  const type = mimeType ?? (input instanceof Blob ? input.type : '');
  if (input instanceof File && !filename && !mimeType) return input;
  return new File([input as BlobPart], name, { type });
}

/** A Node.js module, taken without an import a bundler for the browser would try to follow. */
function nodeModule<Id extends 'node:fs' | 'node:path'>(id: Id) {
  if (typeof process === 'undefined' || typeof process.getBuiltinModule !== 'function') {
    throw new TypeError('A file path can be read on Node.js only: pass a Blob or File in the browser');
  }
  return process.getBuiltinModule(id);
}
