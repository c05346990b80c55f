-- CreateTable
CREATE TABLE "pending_upload" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "task_id" UUID,
    "storage_key" TEXT NOT NULL,
    "filename" TEXT NOT NULL,
    "mime_type" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "url_used_at" TIMESTAMPTZ(3),
    "attachment_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pending_upload_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "pending_upload_storage_key_key" ON "pending_upload"("storage_key");

-- CreateIndex
CREATE UNIQUE INDEX "pending_upload_attachment_id_key" ON "pending_upload"("attachment_id");

-- CreateIndex
CREATE INDEX "pending_upload_expires_at_idx" ON "pending_upload"("expires_at");

-- CreateIndex
CREATE INDEX "pending_upload_task_id_idx" ON "pending_upload"("task_id");

-- AddForeignKey
ALTER TABLE "pending_upload" ADD CONSTRAINT "pending_upload_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "pending_upload" ADD CONSTRAINT "pending_upload_task_id_fkey" FOREIGN KEY ("task_id") REFERENCES "task"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "pending_upload" ADD CONSTRAINT "pending_upload_attachment_id_fkey" FOREIGN KEY ("attachment_id") REFERENCES "attachment"("id") ON DELETE CASCADE ON UPDATE CASCADE;
