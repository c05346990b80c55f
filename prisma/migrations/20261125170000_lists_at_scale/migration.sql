-- The list's filters, each in the default order, by project.
DROP INDEX "task_project_id_status_id_idx";
DROP INDEX "task_project_id_category_idx";
DROP INDEX "task_project_id_priority_idx";
CREATE INDEX "task_project_id_status_id_created_at_id_idx" ON "task"("project_id", "status_id", "created_at" DESC, "id" DESC);
CREATE INDEX "task_project_id_category_created_at_id_idx" ON "task"("project_id", "category", "created_at" DESC, "id" DESC);
CREATE INDEX "task_project_id_priority_created_at_id_idx" ON "task"("project_id", "priority", "created_at" DESC, "id" DESC);

-- The list's orders that had no index: sort=priority, and sort=dueDate with the tasks
-- without a due date last in both directions (server/tasks/list.ts orders by these
-- expressions; Prisma's schema cannot state them).
CREATE INDEX "task_top_level_priority_idx" ON "task"("project_id", "priority", "id") WHERE (parent_id IS NULL);
CREATE INDEX "task_top_level_due_date_asc_idx" ON "task"("project_id", (coalesce("due_date", 'infinity'::timestamptz)), "id") WHERE (parent_id IS NULL);
CREATE INDEX "task_top_level_due_date_desc_idx" ON "task"("project_id", (coalesce("due_date", '-infinity'::timestamptz)), "id") WHERE (parent_id IS NULL);

-- Top-level tasks per project, status, category and priority (see TaskCount).
CREATE TABLE "task_count" (
    "project_id" UUID NOT NULL,
    "status_id" UUID NOT NULL,
    "category" "StatusCategory" NOT NULL,
    "priority" "Priority" NOT NULL,
    "tasks" BIGINT NOT NULL,

    CONSTRAINT "task_count_pkey" PRIMARY KEY ("project_id","status_id","category","priority")
);

INSERT INTO "task_count" ("project_id", "status_id", "category", "priority", "tasks")
SELECT "project_id", coalesce("status_id", '00000000-0000-0000-0000-000000000000'), "category", "priority", count(*)
FROM "task" WHERE "parent_id" IS NULL
GROUP BY 1, 2, 3, 4;

-- Once per statement, from the rows it changed (transition tables), in the statement's
-- own transaction: a create, an update or a delete of any number of tasks adds one
-- upsert of the few count rows it moved, and an update that moves none writes nothing.
CREATE FUNCTION "task_count_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO task_count AS c (project_id, status_id, category, priority, tasks)
    SELECT project_id, coalesce(status_id, '00000000-0000-0000-0000-000000000000'), category, priority, count(*)
    FROM new_rows WHERE parent_id IS NULL GROUP BY 1, 2, 3, 4
    ON CONFLICT (project_id, status_id, category, priority) DO UPDATE SET tasks = c.tasks + excluded.tasks;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO task_count AS c (project_id, status_id, category, priority, tasks)
    SELECT project_id, coalesce(status_id, '00000000-0000-0000-0000-000000000000'), category, priority, -count(*)
    FROM old_rows WHERE parent_id IS NULL GROUP BY 1, 2, 3, 4
    ON CONFLICT (project_id, status_id, category, priority) DO UPDATE SET tasks = c.tasks + excluded.tasks;
  ELSE
    INSERT INTO task_count AS c (project_id, status_id, category, priority, tasks)
    SELECT project_id, status_id, category, priority, sum(delta)
    FROM (
      SELECT project_id, coalesce(status_id, '00000000-0000-0000-0000-000000000000') AS status_id, category, priority, 1 AS delta
      FROM new_rows WHERE parent_id IS NULL
      UNION ALL
      SELECT project_id, coalesce(status_id, '00000000-0000-0000-0000-000000000000'), category, priority, -1
      FROM old_rows WHERE parent_id IS NULL
    ) moved
    GROUP BY 1, 2, 3, 4 HAVING sum(delta) <> 0
    ON CONFLICT (project_id, status_id, category, priority) DO UPDATE SET tasks = c.tasks + excluded.tasks;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "task_count_on_insert" AFTER INSERT ON "task"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "task_count_follow"();
CREATE TRIGGER "task_count_on_update" AFTER UPDATE ON "task"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "task_count_follow"();
CREATE TRIGGER "task_count_on_delete" AFTER DELETE ON "task"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "task_count_follow"();
