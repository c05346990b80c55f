-- AlterTable
ALTER TABLE "project" ADD COLUMN     "changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- CreateTable
CREATE TABLE "task_tombstone" (
    "task_id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "number" INTEGER NOT NULL,
    "deleted_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "task_tombstone_pkey" PRIMARY KEY ("task_id")
);

-- CreateIndex
CREATE INDEX "task_tombstone_project_id_deleted_at_task_id_idx" ON "task_tombstone"("project_id", "deleted_at", "task_id");

-- CreateIndex
CREATE INDEX "task_top_level_updated_at_idx" ON "task"("project_id", "updated_at", "id") WHERE (parent_id IS NULL);

-- AddForeignKey
ALTER TABLE "task_tombstone" ADD CONSTRAINT "task_tombstone_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;
