import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client';
import { AppError, badRequest, conflict, isForeignKeyViolation, notFound } from '../errors';
import { logEvent } from '../log';
import type { ProjectRef } from '../projects/types';
import { MAX_UPLOAD_BYTES } from '../schemas/attachment';
import { UPLOAD_URL_TTL_MS } from '../schemas/direct-upload';
import { removeStoredFiles, storage } from '../storage/storage';
import { findTaskId, TASK_NOT_FOUND } from '../tasks/get';
import { taskWithRoomForAttachment, toAttachment } from './attachments';
import { announceAttachment } from './upload';
import { cleanFilename } from './filename';
import { fileTooLarge, MAX_ATTACHMENTS_PER_TASK, TOO_MANY_ATTACHMENTS } from './limits';
import { mimeTypeOf } from './mime-type';
import { uploadKey } from './upload-objects';

export const UPLOAD_NOT_FOUND = 'Upload not found';
export const UPLOAD_NOT_RECEIVED = 'Upload not received: send the file to uploadUrl first';
export const UPLOAD_URL_USED = 'This upload URL has been used already';
export const sizeDiffers = (stored: number | string, announced: number | string) =>
  `size: the uploaded file has ${stored} bytes, not the announced ${announced}`;
export const largerThanAnnounced = (announced: number | string) => `File larger than the announced ${announced} bytes`;

/**
 * An upload can be completed until its URL has been expired this long: a transfer
 * that started in time may still be under way. After that it is swept, with its
 * object unless it became an attachment.
 */
export const COMPLETE_GRACE_MS = UPLOAD_URL_TTL_MS;
const SWEEP_BATCH = 100;
const SWEEP_MAX_BATCHES = 10;
const UNKNOWN_TYPE = 'application/octet-stream';

export interface AnnouncedFile {
  filename: string;
  mimeType?: string;
  size: number;
}

/**
 * The first step of a direct upload: the file announced, a row that remembers it,
 * and a URL (with the method and headers to use) that takes exactly its bytes,
 * once, for 15 minutes: to the app itself on local disk, to Vercel Blob otherwise.
 */
export async function createUpload(db: Db, workspaceId: string, project: ProjectRef, taskId: string, file: AnnouncedFile) {
  if (file.size > MAX_UPLOAD_BYTES) throw new AppError('payload_too_large', fileTooLarge(MAX_UPLOAD_BYTES));
  const task = await taskWithRoomForAttachment(db, project, taskId);
  const filename = cleanFilename(file.filename);
  const declared = file.mimeType?.toLowerCase();
  const mimeType = declared && declared !== UNKNOWN_TYPE ? declared : mimeTypeOf(UNKNOWN_TYPE, filename);
  const id = randomUUID();
  const storageKey = uploadKey(Date.now());
  // Whole seconds, as the local URL carries them: the answer states the URL's true expiry.
  const expiresAt = new Date(Math.floor((Date.now() + UPLOAD_URL_TTL_MS) / 1000) * 1000);
  const target = await storage().uploadTarget({ uploadId: id, key: storageKey, contentType: mimeType, size: file.size, expiresAt });
  try {
    await db.pendingUpload.create({
      data: { id, workspaceId, taskId: task, storageKey, filename, mimeType, size: file.size, expiresAt },
    });
  } catch (error) {
    throw isForeignKeyViolation(error) ? notFound(TASK_NOT_FOUND) : error;
  }
  return { uploadId: id, uploadUrl: target.url, method: 'PUT' as const, headers: target.headers, expiresAt: expiresAt.toISOString() };
}

/**
 * The second step: the stored object checked against what was announced, then
 * recorded as the task's attachment, the same record a multipart upload gives.
 * Completing again answers the same attachment. An object of the wrong size is
 * deleted, and the URL may take the right bytes again while it is valid.
 */
export async function completeUpload(db: Db, workspaceId: string, project: ProjectRef, taskId: string, uploadId: string) {
  const task = await findTaskId(db, project, taskId);
  const upload = await db.pendingUpload.findFirst({
    where: { id: uploadId.toLowerCase(), taskId: task, workspaceId },
    include: { attachment: true },
  });
  if (!upload) throw notFound(UPLOAD_NOT_FOUND);
  if (upload.attachment) return toAttachment(upload.attachment);
  if (Date.now() >= upload.expiresAt.getTime() + COMPLETE_GRACE_MS) throw notFound(UPLOAD_NOT_FOUND);

  const stored = await storage().size(upload.storageKey);
  if (stored === null) throw badRequest(UPLOAD_NOT_RECEIVED);
  if (stored > MAX_UPLOAD_BYTES || stored !== upload.size) {
    // Deleted before the URL is open again, so that the right bytes cannot be deleted in its place.
    await storage().delete([upload.storageKey]);
    await db.pendingUpload.updateMany({ where: { id: upload.id, attachmentId: null }, data: { urlUsedAt: null } });
    throw stored > MAX_UPLOAD_BYTES
      ? new AppError('payload_too_large', fileTooLarge(MAX_UPLOAD_BYTES))
      : badRequest(sizeDiffers(stored, upload.size));
  }

  let row;
  try {
    row = await db.$transaction(async (tx) => {
      // Parallel completes of one upload take turns here; the sweep skips a row held so.
      const [locked] = await tx.$queryRaw<{ attachment_id: string | null }[]>`
        SELECT attachment_id FROM pending_upload WHERE id = ${upload.id}::uuid FOR UPDATE`;
      if (!locked) throw notFound(UPLOAD_NOT_FOUND);
      if (locked.attachment_id) return tx.attachment.findUniqueOrThrow({ where: { id: locked.attachment_id } });
      if ((await tx.attachment.count({ where: { taskId: task } })) >= MAX_ATTACHMENTS_PER_TASK) throw conflict(TOO_MANY_ATTACHMENTS);
      const { storageKey, filename, mimeType, size } = upload;
      const attachment = await tx.attachment.create({
        data: { taskId: task, storageKey, filename, mimeType, size },
        include: { task: { select: { number: true } } },
      });
      await announceAttachment(tx, project, attachment);
      await tx.pendingUpload.update({ where: { id: upload.id }, data: { attachmentId: attachment.id } });
      return attachment;
    });
  } catch (error) {
    // The task was deleted meanwhile; its row keeps the object until the sweep removes it.
    throw isForeignKeyViolation(error) ? notFound(TASK_NOT_FOUND) : error;
  }
  return toAttachment(row);
}

export interface UploadSlot {
  key: string;
  size: number;
  contentType: string;
}

/**
 * Takes a direct upload's bytes on local disk through `write`, which stores them
 * under the slot's key, at most its size. The URL is claimed first, so that it
 * works once: a second or parallel PUT is refused; a failed one frees it again.
 */
export async function receiveUpload(db: Db, uploadId: string, write: (slot: UploadSlot) => Promise<number>): Promise<number> {
  const claimedAt = new Date();
  const [slot] = await db.pendingUpload.updateManyAndReturn({
    where: { id: uploadId, urlUsedAt: null, attachmentId: null, expiresAt: { gt: claimedAt } },
    data: { urlUsedAt: claimedAt },
    select: { storageKey: true, size: true, mimeType: true },
  });
  if (!slot) {
    const exists = await db.pendingUpload.count({ where: { id: uploadId } });
    throw exists ? conflict(UPLOAD_URL_USED) : notFound(UPLOAD_NOT_FOUND);
  }
  let size: number;
  try {
    size = await write({ key: slot.storageKey, size: slot.size, contentType: slot.mimeType });
  } catch (error) {
    await db.pendingUpload
      .updateMany({ where: { id: uploadId, urlUsedAt: claimedAt }, data: { urlUsedAt: null } })
      .catch((releaseError: unknown) => logEvent('error', 'upload.release_failed', { error: releaseError }));
    throw error;
  }
  // Swept while the bytes came in: they belong to nothing now.
  if ((await db.pendingUpload.count({ where: { id: uploadId } })) === 0) {
    removeStoredFiles([slot.storageKey]);
    throw notFound(UPLOAD_NOT_FOUND);
  }
  return size;
}

/**
 * Removes uploads whose time to complete has passed, with their objects unless
 * they became attachments; a batch of 100 at a time, rows another process holds
 * skipped, at most 1,000 a run (`more` when it stopped there). The objects go first,
 * awaited, and the rows only then: a store that fails leaves the rows for the next run.
 */
export async function sweepExpiredUploads(db: Db, now = Date.now()): Promise<{ deleted: number; more: boolean }> {
  const cutoff = new Date(now - COMPLETE_GRACE_MS).toISOString();
  let deleted = 0;
  for (let batch = 0; batch < SWEEP_MAX_BATCHES; batch++) {
    const count = await db.$transaction(async (tx) => {
      const expired = await tx.$queryRaw<{ id: string; storage_key: string; attachment_id: string | null }[]>`
        SELECT id, storage_key, attachment_id FROM pending_upload WHERE expires_at < ${cutoff}::timestamptz
        ORDER BY expires_at LIMIT ${SWEEP_BATCH} FOR UPDATE SKIP LOCKED`;
      if (expired.length === 0) return 0;
      const orphans = expired.filter((row) => row.attachment_id === null).map((row) => row.storage_key);
      if (orphans.length > 0) await storage().delete(orphans);
      await tx.pendingUpload.deleteMany({ where: { id: { in: expired.map((row) => row.id) } } });
      return expired.length;
    });
    deleted += count;
    if (count < SWEEP_BATCH) return { deleted, more: false };
  }
  return { deleted, more: true };
}
