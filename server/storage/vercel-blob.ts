import { del, issueSignedToken, presignUrl, put } from '@vercel/blob';
import type { BlobStore } from './storage';

// The delegation outlives the link a little, so the link carries its own exact expiry.
const DELEGATION_MARGIN_MS = 60_000;

/** A private Vercel Blob store: objects are named by their key and read only through presigned links. */
export function createVercelBlobStore(token: string): BlobStore {
  return {
    async put(key, body, contentType) {
      let size = 0;
      const counted = body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            size += chunk.byteLength;
            controller.enqueue(chunk);
          },
        }),
      );
      // Uploads are at most 10 MB: one PUT; multipart pays off from about 100 MB.
      await put(key, counted, { access: 'private', token, contentType, addRandomSuffix: false });
      return size;
    },

    async delete(keys) {
      if (keys.length > 0) await del(keys, { token });
    },

    async downloadUrl(file, expiresAt) {
      const validUntil = expiresAt.getTime();
      const signed = await issueSignedToken({
        token,
        pathname: file.key,
        operations: ['get'],
        validUntil: validUntil + DELEGATION_MARGIN_MS,
      });
      const { presignedUrl } = await presignUrl(signed, { operation: 'get', pathname: file.key, access: 'private', validUntil });
      return presignedUrl;
    },
  };
}
