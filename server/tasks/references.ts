import { Prisma } from '../db/generated/client';
import type { ProjectRef } from '../projects/types';
import { badRequest, type AppError } from '../errors';

/** The ids a create or update names, as its input holds them (lists deduplicated and lowercased). */
export interface References {
  statusId?: string;
  assigneeIds?: string[];
  labelIds?: string[];
}

/** What the database found of them, usable in this project. */
export interface FoundReferences {
  status_found: boolean;
  member_ids: string[];
  label_ids: string[];
}

/**
 * Common table expressions, for the front of a write's statement, of the rows the
 * references name and may use: `named_status` (the status of the project, or with
 * none named and `defaultStatus`, the project's first `todo` status), `members` of
 * the workspace with their names, `labels` available in the project; and `refs_ok`,
 * whether every named id is among them. The write goes ahead only where `refs_ok`.
 */
export function referenceTables(workspaceId: string, project: ProjectRef, refs: References, defaultStatus: boolean): Prisma.Sql {
  const statusId = refs.statusId?.toLowerCase() ?? null;
  const assigneeIds = refs.assigneeIds ?? [];
  const labelIds = refs.labelIds ?? [];
  return Prisma.sql`
    named_status AS (
      SELECT s.id, s.name, s.color, s.category FROM status s
      WHERE s.project_id = ${project.id}::uuid
        AND (s.id = ${statusId}::uuid OR (${statusId}::uuid IS NULL AND ${defaultStatus} AND s.category = 'todo'))
      ORDER BY s.display_order, s.id LIMIT 1),
    members AS (
      SELECT u.id, u.name FROM membership m JOIN "user" u ON u.id = m.user_id
      WHERE m.workspace_id = ${workspaceId}::uuid AND m.user_id = ANY(${assigneeIds}::uuid[])),
    labels AS (
      SELECT l.id, l.name, l.color FROM label l
      WHERE l.id = ANY(${labelIds}::uuid[]) AND l.workspace_id = ${workspaceId}::uuid
        AND (l.scope = 'workspace' OR EXISTS (SELECT 1 FROM project_label pl WHERE pl.label_id = l.id AND pl.project_id = ${project.id}::uuid))),
    refs_ok AS (
      SELECT (${statusId}::uuid IS NULL OR EXISTS (SELECT 1 FROM named_status))
        AND (SELECT count(*) FROM members) = ${assigneeIds.length}
        AND (SELECT count(*) FROM labels) = ${labelIds.length} AS ok)`;
}

/** The columns that report what referenceTables found, for the statement's result. */
export const FOUND_REFERENCES = Prisma.sql`
  EXISTS (SELECT 1 FROM named_status) AS status_found,
  ARRAY(SELECT id::text FROM members) AS member_ids,
  ARRAY(SELECT id::text FROM labels) AS label_ids`;

/** The 400 naming the first id the write could not use, for a write whose `refs_ok` was false. */
export function referenceProblem(project: ProjectRef, refs: References, found: FoundReferences): AppError {
  if (refs.statusId && !found.status_found) return badRequest(`statusId: ${refs.statusId} is not a status of project ${project.slug}`);
  const memberIds = new Set(found.member_ids);
  const stranger = refs.assigneeIds?.find((id) => !memberIds.has(id));
  if (stranger) return badRequest(`assigneeIds: ${stranger} is not a member of this workspace`);
  const labelIds = new Set(found.label_ids);
  const unavailable = refs.labelIds?.find((id) => !labelIds.has(id));
  if (unavailable) return badRequest(`labelIds: ${unavailable} is not a label available in project ${project.slug}`);
  // Unreached while the input's lists hold no id twice (schemas/task.ts): refs_ok counts them.
  return badRequest(`assigneeIds, labelIds: an id is named twice`);
}
