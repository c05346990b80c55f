-- CreateExtension
CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- DropIndex
DROP INDEX "task_project_id_parent_id_created_at_id_idx";

-- CreateIndex
CREATE INDEX "task_top_level_created_at_idx" ON "task"("project_id", "created_at" DESC, "id" DESC) WHERE (parent_id IS NULL);
