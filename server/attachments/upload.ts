import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client';
import { Prisma } from '../db/generated/client';
import type { InTransaction } from '../db/transaction';
import { conflict, isForeignKeyViolation, notFound } from '../errors';
import { removeStoredFiles, storage } from '../storage/storage';
import type { ProjectRef } from '../projects/types';
import { TASK_NOT_FOUND } from '../tasks/get';
import { downloadUrl, taskWithRoomForAttachment, withDownloadUrl, type AttachmentRow } from './attachments';
import { MAX_ATTACHMENTS_PER_TASK, TOO_MANY_ATTACHMENTS } from './limits';
import { cleanFilename } from './filename';
import { mimeTypeOf } from './mime-type';
import { announcedWrite } from '../webhooks/announced-write';
import { enqueueEvent, eventWanted } from '../webhooks/events';

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
  const taskId = await taskWithRoomForAttachment(db, project, taskRef);
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

type AddedRow = { number: number | null; at_limit: boolean | null; event_wanted: boolean } & Partial<AttachmentRow>;

/**
 * The statement that adds the attachment row to the task, if the task is still
 * there and has room for it; with `alone`, only if no endpoint wants the event,
 * which then needs a transaction.
 */
function addAttachmentStatement(project: ProjectRef, taskId: string, file: StoredFile, alone: boolean): Prisma.Sql {
  return Prisma.sql`
    WITH target AS (
      SELECT t.id, t.number, (SELECT count(*) FROM attachment a WHERE a.task_id = t.id) >= ${MAX_ATTACHMENTS_PER_TASK} AS at_limit
      FROM task t WHERE t.id = ${taskId}::uuid),
    wanted AS (SELECT ${eventWanted(project.id, 'attachment.created')} AS yes),
    added AS (
      INSERT INTO attachment (id, task_id, filename, mime_type, size, storage_key, created_at)
      SELECT ${randomUUID()}::uuid, target.id, ${file.filename}, ${file.mimeType}, ${file.size}::int, ${file.storageKey}, now()
      FROM target WHERE NOT target.at_limit AND NOT (${alone} AND (SELECT yes FROM wanted))
      RETURNING id::text, filename, mime_type AS "mimeType", size, storage_key AS "storageKey", created_at AS "createdAt")
    SELECT (SELECT number FROM target) AS number, (SELECT at_limit FROM target) AS at_limit, (SELECT yes FROM wanted) AS event_wanted,
      added.*
    FROM (SELECT 1) AS one LEFT JOIN added ON true`;
}

/**
 * Writes the row once the bytes are stored, in one statement (announced-write.ts). The task may
 * have been deleted in between (its delete locks the row, so an insert under way
 * then fails on the foreign key): the file goes too and the client learns the task
 * is gone. The download link is made first, so that `inTransaction` sees the whole
 * answer before the row commits.
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
    return await announcedWrite(
      db,
      {
        async write(runner, alone) {
          const [row] = await runner.$queryRaw<AddedRow[]>(addAttachmentStatement(project, taskId, file, alone));
          const { number, at_limit: full, event_wanted: wanted, ...added } = row!;
          if (number === null) throw notFound(TASK_NOT_FOUND);
          if (full) throw conflict(TOO_MANY_ATTACHMENTS);
          return { wanted, row: added.id ? { ...(added as AttachmentRow), taskId, task: { number } } : null };
        },
        announce: (tx, created) => announceAttachment(tx, project, created),
        answer: (created) => withDownloadUrl(created, url),
      },
      inTransaction,
    );
  } catch (error) {
    discardFile(file);
    throw isForeignKeyViolation(error) ? notFound(TASK_NOT_FOUND) : error;
  }
}
