import { BlobNotFoundError, del, head, issueSignedToken, list, presignUrl, put } from '@vercel/blob';
import type { BlobStore } from './storage';

// The delegation outlives the link a little, so the link carries its own exact expiry.
const DELEGATION_MARGIN_MS = 60_000;
// The Blob API version @vercel/blob 2.8 sends with every request (tests/storage/vercel-blob.test.ts checks it).
export const BLOB_API_VERSION = '12';
// Blob's largest page.
const LIST_PAGE = 1000;

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

    /**
     * A presigned PUT of the Blob API: signed for this one pathname, at most the
     * announced size, this content type, no overwrite (so it works once) and
     * until `expiresAt`. Blob checks all of it; the read-write token stays here.
     */
    async uploadTarget(upload) {
      const validUntil = upload.expiresAt.getTime();
      const scope = { maximumSizeInBytes: upload.size, allowedContentTypes: [upload.contentType] };
      const signed = await issueSignedToken({
        token,
        pathname: upload.key,
        operations: ['put'],
        validUntil: validUntil + DELEGATION_MARGIN_MS,
        ...scope,
      });
      const { presignedUrl } = await presignUrl(signed, {
        operation: 'put',
        pathname: upload.key,
        access: 'private',
        validUntil,
        allowOverwrite: false,
        addRandomSuffix: false,
        ...scope,
      });
      return {
        url: presignedUrl,
        headers: {
          'x-vercel-blob-access': 'private',
          'x-content-type': upload.contentType,
          'x-api-version': BLOB_API_VERSION,
        },
      };
    },

    async size(key) {
      try {
        return (await head(key, { token })).size;
      } catch (error) {
        if (error instanceof BlobNotFoundError) return null;
        throw error;
      }
    },

    async *list(prefix) {
      let cursor: string | undefined;
      do {
        const page = await list({ token, prefix, cursor, limit: LIST_PAGE });
        yield page.blobs.map((blob) => ({ key: blob.pathname, uploadedAt: blob.uploadedAt }));
        cursor = page.hasMore ? page.cursor : undefined;
      } while (cursor);
    },
  };
}
