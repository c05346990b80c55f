import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client';
import type { Prisma } from '../db/generated/client';
import type { InTransaction } from '../db/transaction';
import { isForeignKeyViolation, notFound } from '../errors';
import { removeStoredFiles, storage } from '../storage/storage';
import type { ProjectRef } from '../projects/types';
import { findTaskId, TASK_NOT_FOUND } from '../tasks/get';
import { downloadUrl, withDownloadUrl, type AttachmentRow } from './attachments';
import { cleanFilename } from './filename';
import { mimeTypeOf } from './mime-type';
import { enqueueEvent } from '../webhooks/events';

export interface IncomingFile {
  filename: string;
  mimeType: string;
  body: ReadableStream<Uint8Array>;
}

export interface StoredFile {
  storageKey: string;
  filename: string;
  mimeType: string;
  size: number;
}

/** Stores the bytes under a fresh random key; nothing is left behind if the stream fails. */
export async function storeFile(file: IncomingFile): Promise<StoredFile> {
  const storageKey = randomUUID().replaceAll('-', '');
  try {
    const size = await storage().put(storageKey, file.body, file.mimeType);
    return { storageKey, filename: file.filename, mimeType: file.mimeType, size };
  } catch (error) {
    // The store removes its own partial writes; this covers a remote store that kept the bytes anyway.
    removeStoredFiles([storageKey]);
    throw error;
  }
}

/**
 * A file as the client named and typed it: the name kept as data, the type from
 * the client unless it says nothing useful, then stored.
 */
export function storeUpload(file: Omit<IncomingFile, 'filename'> & { filename: string | undefined }): Promise<StoredFile> {
  const filename = cleanFilename(file.filename);
  return storeFile({ filename, mimeType: mimeTypeOf(file.mimeType, filename), body: file.body });
}

/** A file whose bytes came whole with the request (an MCP tool call), attached to the task. */
export async function attachFile(
  db: Db,
  project: ProjectRef,
  taskRef: string,
  file: { filename: string; mimeType: string; bytes: Uint8Array },
) {
  const taskId = await findTaskId(db, project, taskRef);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(file.bytes);
      controller.close();
    },
  });
  return recordAttachment(db, project, taskId, await storeUpload({ filename: file.filename, mimeType: file.mimeType, body }));
}

/**
 * The attachment.created event of a row just written, in its transaction. The event's
 * attachment has no download URL: one that expires in an hour is no use in a log.
 */
export async function announceAttachment(
  tx: Prisma.TransactionClient,
  project: ProjectRef,
  created: AttachmentRow & { taskId: string; task: { number: number } },
) {
  const { url: _url, ...attachment } = withDownloadUrl(created, '');
  await enqueueEvent(tx, project, 'attachment.created', {
    attachment,
    task: { id: created.taskId, externalId: `${project.keyPrefix}-${created.task.number}` },
  });
}

/** Stored bytes that will not become an attachment. */
export function discardFile(file: StoredFile): void {
  removeStoredFiles([file.storageKey]);
}

/**
 * Writes the row once the bytes are stored. The task may have been deleted in
 * between (its delete locks the row, so the insert then fails on the foreign key):
 * the file goes too and the client learns the task is gone. The download link is
 * made first, so that `inTransaction` sees the whole answer before the row commits.
 */
export async function recordAttachment(
  db: Db,
  project: ProjectRef,
  taskId: string,
  file: StoredFile,
  inTransaction?: InTransaction<ReturnType<typeof withDownloadUrl>>,
) {
  try {
    const url = await downloadUrl(file);
    return await db.$transaction(async (tx) => {
      const created = await tx.attachment.create({ data: { taskId, ...file }, include: { task: { select: { number: true } } } });
      await announceAttachment(tx, project, created);
      const attachment = withDownloadUrl(created, url);
      await inTransaction?.(tx, attachment);
      return attachment;
    });
  } catch (error) {
    discardFile(file);
    throw isForeignKeyViolation(error) ? notFound(TASK_NOT_FOUND) : error;
  }
}
