import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client';
import { isForeignKeyViolation, notFound } from '../errors';
import { removeStoredFiles, storage } from '../storage/storage';
import { TASK_NOT_FOUND } from '../tasks/get';
import type { ProjectRef } from '../projects/types';
import { enqueueEvent } from '../webhooks/events';
import { toAttachment } from './attachments';

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

/** Stored bytes that will not become an attachment. */
export function discardFile(file: StoredFile): void {
  removeStoredFiles([file.storageKey]);
}

/**
 * Writes the row once the bytes are stored. The task may have been deleted in
 * between (its delete locks the row, so the insert then fails on the foreign key):
 * the file goes too and the client learns the task is gone.
 */
export async function recordAttachment(db: Db, project: ProjectRef, taskId: string, file: StoredFile) {
  let row;
  try {
    row = await db.$transaction(async (tx) => {
      const created = await tx.attachment.create({ data: { taskId, ...file }, include: { task: { select: { number: true } } } });
      // The event's attachment has no download URL: one that expires in an hour is no use in a log.
      const attachment = {
        id: created.id,
        filename: created.filename,
        mimeType: created.mimeType,
        size: created.size,
        createdAt: created.createdAt.toISOString(),
      };
      await enqueueEvent(tx, project, 'attachment.created', {
        attachment,
        task: { id: taskId, externalId: `${project.keyPrefix}-${created.task.number}` },
      });
      return created;
    });
  } catch (error) {
    discardFile(file);
    throw isForeignKeyViolation(error) ? notFound(TASK_NOT_FOUND) : error;
  }
  return toAttachment(row);
}
