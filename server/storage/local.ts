import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { assertStorageKey, signedDownloadUrl, signedUploadUrl } from './signed-url';
import type { BlobStore } from './storage';

/** Files on local disk, one per key, downloaded through signed links served by the app itself. */
export function createLocalStore(dir: string, appUrl: string): BlobStore {
  return {
    async put(key, body) {
      const target = localFilePath(dir, key);
      await fs.mkdir(dir, { recursive: true });
      // Never a valid key (it has dots), so a half-written file can't be downloaded.
      const partial = `${target}.${randomBytes(6).toString('hex')}.partial`;
      const file = createWriteStream(partial, { flags: 'wx' });
      try {
        await pipeline(Readable.fromWeb(body as NodeReadableStream<Uint8Array>), file);
        await fs.rename(partial, target);
      } catch (error) {
        // pipeline rejects as soon as the body fails, possibly before the file is even
        // open: removed before then, it would be created afterwards and stay.
        if (!file.closed) await new Promise<void>((resolve) => file.once('close', () => resolve()));
        await fs.rm(partial, { force: true });
        throw error;
      }
      return file.bytesWritten;
    },

    async delete(keys) {
      const files = keys.map((key) => localFilePath(dir, key));
      await Promise.all(files.map((file) => fs.rm(file, { force: true })));
    },

    async downloadUrl(file, expiresAt) {
      return signedDownloadUrl(appUrl, {
        key: file.key,
        filename: file.filename,
        contentType: file.contentType,
        // Rounded down so the link never outlives what was asked for.
        expires: Math.floor(expiresAt.getTime() / 1000),
      });
    },

    // The app itself takes the bytes (server/http/direct-upload.ts), counting them against the announced size.
    async uploadTarget(upload) {
      assertStorageKey(upload.key);
      const url = signedUploadUrl(appUrl, upload.uploadId, Math.floor(upload.expiresAt.getTime() / 1000));
      return { url, headers: { 'Content-Type': upload.contentType } };
    },

    async size(key) {
      try {
        return (await fs.stat(localFilePath(dir, key))).size;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
  };
}

export function localFilePath(dir: string, key: string): string {
  assertStorageKey(key);
  return path.join(dir, key);
}
