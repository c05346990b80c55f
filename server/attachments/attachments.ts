import type { ProjectRef } from '../projects/types';
import type { Db } from '../db/client';
import { conflict, notFound } from '../errors';
import { storage } from '../storage/storage';
import { findTaskId, TASK_NOT_FOUND } from '../tasks/get';
import { taskCondition } from '../tasks/locate';
import { MAX_ATTACHMENTS_PER_TASK, TOO_MANY_ATTACHMENTS } from './limits';

export const DOWNLOAD_URL_TTL_MS = 60 * 60 * 1000;
export const ATTACHMENT_NOT_FOUND = 'Attachment not found';

export interface AttachmentRow {
  id: string;
  filename: string;
  mimeType: string;
  size: number;
  storageKey: string;
  createdAt: Date;
}

/** The full record, with a download URL valid for an hour from now. */
export async function toAttachment(row: AttachmentRow) {
  return withDownloadUrl(row, await downloadUrl(row));
}

/** A link to the stored file, valid for an hour from now. */
export function downloadUrl(file: Pick<AttachmentRow, 'storageKey' | 'filename' | 'mimeType'>): Promise<string> {
  return storage().downloadUrl(
    { key: file.storageKey, filename: file.filename, contentType: file.mimeType },
    new Date(Date.now() + DOWNLOAD_URL_TTL_MS),
  );
}

export function withDownloadUrl(row: AttachmentRow, url: string) {
  return {
    id: row.id,
    filename: row.filename,
    url,
    mimeType: row.mimeType,
    size: row.size,
    createdAt: row.createdAt.toISOString(),
  };
}

/** An attachment addressed through another task's path is not found. */
export async function getAttachment(db: Db, project: ProjectRef, taskId: string, attachmentId: string) {
  const id = await findTaskId(db, project, taskId);
  const row = await db.attachment.findFirst({ where: { id: attachmentId.toLowerCase(), taskId: id } });
  if (!row) throw notFound(ATTACHMENT_NOT_FOUND);
  return toAttachment(row);
}

/**
 * The id of `taskId` in `project`, for a file about to be added: 404 without the
 * task, 409 when it has all the attachments it may have, before any byte is stored.
 */
export async function taskWithRoomForAttachment(db: Db, project: ProjectRef, taskId: string): Promise<string> {
  const condition = taskCondition(project, taskId);
  const [task] = condition
    ? await db.$queryRaw<{ id: string; at_limit: boolean }[]>`
        SELECT t.id::text, (SELECT count(*) FROM attachment a WHERE a.task_id = t.id) >= ${MAX_ATTACHMENTS_PER_TASK} AS at_limit
        FROM task t WHERE ${condition}`
    : [];
  if (!task) throw notFound(TASK_NOT_FOUND);
  if (task.at_limit) throw conflict(TOO_MANY_ATTACHMENTS);
  return task.id;
}
