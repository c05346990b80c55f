import { env } from '../env';
import { logEvent } from '../log';
import { createLocalStore } from './local';
import { createVercelBlobStore } from './vercel-blob';

/** Where attachment bytes live. Keys are random; filenames are data, never paths. */
export interface BlobStore {
  /** Stores the bytes under `key`; resolves with the number of bytes stored. */
  put(key: string, body: ReadableStream<Uint8Array>, contentType: string): Promise<number>;
  delete(keys: string[]): Promise<void>;
  /** A URL that downloads the bytes until `expiresAt` and is refused after. */
  downloadUrl(file: { key: string; filename: string; contentType: string }, expiresAt: Date): Promise<string>;
  /**
   * Where a client sends a direct upload's bytes itself (with PUT and these headers):
   * into `key` only, at most `size` bytes, once, until `expiresAt`.
   */
  uploadTarget(upload: UploadSlot): Promise<{ url: string; headers: Record<string, string> }>;
  /** The size in bytes of what is stored under `key`; null when nothing is. */
  size(key: string): Promise<number | null>;
  /**
   * The objects whose keys start with `prefix`, a page at a time; only where clients
   * write objects without the app in between (Vercel Blob's presigned PUT).
   */
  list?(prefix: string): AsyncIterable<StoredObject[]>;
}

export interface StoredObject {
  key: string;
  uploadedAt: Date;
}

export interface UploadSlot {
  uploadId: string;
  key: string;
  contentType: string;
  size: number;
  expiresAt: Date;
}

const holder = globalThis as unknown as { __taskApiStorage?: BlobStore };

export function storage(): BlobStore {
  const config = env();
  holder.__taskApiStorage ??=
    config.storage.kind === 'vercel-blob'
      ? createVercelBlobStore(config.storage.token)
      : createLocalStore(config.storage.dir, config.appUrl);
  return holder.__taskApiStorage;
}

const pending = new Set<Promise<void>>();

/** Removes files whose rows are already gone, without holding up the response. */
export function removeStoredFiles(keys: string[]): void {
  if (keys.length === 0) return;
  const removal = storage()
    .delete(keys)
    .catch((error) => logEvent('error', 'storage.delete_failed', { error, count: keys.length }))
    .finally(() => pending.delete(removal));
  pending.add(removal);
}

/** Waits for removals already started; for tests and orderly shutdown. */
export async function settleStorage(): Promise<void> {
  await Promise.all([...pending]);
}
