import { Readable } from 'node:stream';
import busboy from 'busboy';
import { filePartRequired, MULTIPART_MALFORMED, oneFilePartOnly } from '../api/messages';
import { AppError, badRequest } from '../errors';

export interface FilePart {
  /** As the client sent it, path and all; undefined when it sent none. */
  filename: string | undefined;
  mimeType: string;
  body: ReadableStream<Uint8Array>;
}

export interface FileLimits {
  field: string;
  fileBytes: number;
  fileTooLarge: string;
}

/**
 * Streams the one file part of a multipart body, given as its chunks (bounded by
 * the caller: Exchange.streamBody), into `consume`, never holding more than a chunk. When the body turns out wrong after `consume` succeeded
 * (a second file part, say), `undo` gets its result. `onField` sees the other
 * (text) fields, which are otherwise ignored.
 */
export type FileReader = <T>(
  body: AsyncIterable<Uint8Array>,
  consume: (part: FilePart) => Promise<T>,
  undo: (result: T) => void,
  onField?: (name: string, value: string) => void,
) => Promise<T>;

/** A reader for this request's body; null unless it is multipart/form-data with a boundary. */
export function fileReader(headers: Headers, limits: FileLimits): FileReader | null {
  const contentType = headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\s*;/i.test(contentType)) return null;
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': contentType },
      // Browsers send raw UTF-8 in filename="…".
      defParamCharset: 'utf8',
      // The parser reports reaching its limit, not passing it: one byte more tells a full 10 MB file from a larger one.
      limits: { files: 1, fileSize: limits.fileBytes + 1 },
    });
  } catch {
    return null;
  }
  return (body, consume, undo, onField) => {
    if (onField) parser.on('field', onField);
    // One chunk read ahead at most: the rest waits in the client's socket, not here.
    return readFile(parser, Readable.from(body, { highWaterMark: 1 }), limits, consume, undo);
  };
}

async function readFile<T>(
  parser: busboy.Busboy,
  source: Readable,
  limits: FileLimits,
  consume: (part: FilePart) => Promise<T>,
  undo: (result: T) => void,
): Promise<T> {
  let consumed: Promise<T> | undefined;
  let part: Readable | undefined;
  const parsed = new Promise<void>((resolve, reject) => {
    parser.on('file', (name, stream, info) => {
      // Skipped, yet it was the one file part allowed: a `file` part after it is refused.
      if (name !== limits.field) {
        stream.resume();
        return;
      }
      part = stream;
      stream.on('limit', () => {
        const error = new AppError('payload_too_large', limits.fileTooLarge);
        stream.destroy(error);
        reject(error);
      });
      // Inside an event handler a synchronous throw would crash the process: make it a rejection.
      consumed = (async () =>
        consume({ filename: info.filename, mimeType: info.mimeType, body: Readable.toWeb(stream) as ReadableStream<Uint8Array> }))();
      consumed.catch(reject);
    });
    parser.on('filesLimit', () => reject(badRequest(oneFilePartOnly(limits.field))));
    parser.on('error', () => reject(badRequest(MULTIPART_MALFORMED)));
    parser.on('close', resolve);
    source.on('error', reject);
    source.pipe(parser);
  });

  try {
    await parsed;
  } catch (error) {
    // Stop reading without cancelling the request body: that would reset the
    // connection before the client sees the answer.
    source.unpipe(parser);
    source.destroy();
    part?.destroy(error as Error);
    if (consumed) await consumed.then(undo, () => undefined);
    throw error;
  }
  if (!consumed) throw badRequest(filePartRequired(limits.field));
  return consumed;
}
