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

/** A field that names ids, as References has them. */
export type ReferenceField = keyof References;

/** What is wrong with an id a write named but cannot use. */
export function unusable(project: ProjectRef, field: ReferenceField, id: string): string {
  switch (field) {
    case 'statusId':
      return `${id} is not a status of project ${project.slug}`;
    case 'assigneeIds':
      return `${id} is not a member of this workspace`;
    case 'labelIds':
      return `${id} is not a label available in project ${project.slug}`;
  }
}

/** The 400 naming the first id the write could not use, for a write whose `refs_ok` was false. */
export function referenceProblem(project: ProjectRef, refs: References, found: FoundReferences): AppError {
  if (refs.statusId && !found.status_found) return badRequest(`statusId: ${unusable(project, 'statusId', refs.statusId)}`);
  const memberIds = new Set(found.member_ids);
  const stranger = refs.assigneeIds?.find((id) => !memberIds.has(id));
  if (stranger) return badRequest(`assigneeIds: ${unusable(project, 'assigneeIds', stranger)}`);
  const labelIds = new Set(found.label_ids);
  const unavailable = refs.labelIds?.find((id) => !labelIds.has(id));
  if (unavailable) return badRequest(`labelIds: ${unusable(project, 'labelIds', unavailable)}`);
  // Unreached while the input's lists hold no id twice (schemas/task.ts): refs_ok counts them.
  return badRequest(`assigneeIds, labelIds: an id is named twice`);
}

/** An id an item of a batch names that the project cannot use: the item's index (from 0), its field and the id. */
export interface BatchProblem {
  item: number;
  field: ReferenceField;
  id: string;
}

/**
 * referenceTables for a batch, after a CTE `items` with each item's `item` (its
 * position, from 1) and `status_id`: `members` and `usable_labels` (by item) that
 * the items name and may use, and `problems`, every id they name and may not.
 * Lists travel as pairs of item and id, so the text is the same whatever the batch.
 */
export function batchReferenceTables(workspaceId: string, project: ProjectRef, items: References[]): Prisma.Sql {
  const pairs = (list: (item: References) => string[] | undefined) =>
    items.flatMap((item, index) => (list(item) ?? []).map((id) => [index + 1, id] as const));
  const assignees = pairs((item) => item.assigneeIds);
  const labels = pairs((item) => item.labelIds);
  return Prisma.sql`
    named_assignees AS (SELECT * FROM unnest(${assignees.map(([item]) => item)}::int[], ${assignees.map(([, id]) => id)}::uuid[]) AS a (item, id)),
    named_labels AS (SELECT * FROM unnest(${labels.map(([item]) => item)}::int[], ${labels.map(([, id]) => id)}::uuid[]) AS l (item, id)),
    members AS (
      SELECT a.item, a.id FROM named_assignees a
      JOIN membership m ON m.workspace_id = ${workspaceId}::uuid AND m.user_id = a.id),
    usable_labels AS (
      SELECT n.item, n.id FROM named_labels n
      JOIN label l ON l.id = n.id AND l.workspace_id = ${workspaceId}::uuid
      WHERE l.scope = 'workspace' OR EXISTS (SELECT 1 FROM project_label pl WHERE pl.label_id = l.id AND pl.project_id = ${project.id}::uuid)),
    problems AS (
      SELECT i.item, 1 AS rank, 'statusId' AS field, i.status_id::text AS id FROM items i
      WHERE i.status_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM status s WHERE s.project_id = ${project.id}::uuid AND s.id = i.status_id)
      UNION ALL
      SELECT a.item, 2, 'assigneeIds', a.id::text FROM named_assignees a
      WHERE NOT EXISTS (SELECT 1 FROM members m WHERE m.item = a.item AND m.id = a.id)
      UNION ALL
      SELECT n.item, 3, 'labelIds', n.id::text FROM named_labels n
      WHERE NOT EXISTS (SELECT 1 FROM usable_labels u WHERE u.item = n.item AND u.id = n.id))`;
}

/** The column that reports batchReferenceTables' problems (BatchProblem[]), first item first. */
export const BATCH_PROBLEMS = Prisma.sql`
  (SELECT coalesce(jsonb_agg(jsonb_build_object('item', p.item - 1, 'field', p.field, 'id', p.id) ORDER BY p.item, p.rank), '[]')
   FROM problems p) AS problems`;

/** The 400 naming the first item of a batch whose id the write could not use, if any. */
export function batchProblem(project: ProjectRef, problems: BatchProblem[]): AppError | null {
  const [problem] = problems;
  return problem ? badRequest(`tasks[${problem.item}].${problem.field}: ${unusable(project, problem.field, problem.id)}`) : null;
}
