-- AlterTable
ALTER TABLE "api_key" ADD COLUMN "rejection_audited_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "audit_event" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "action" TEXT NOT NULL,
    "action_group" TEXT NOT NULL,
    "actor_type" TEXT NOT NULL,
    "actor_id" TEXT,
    "actor_name" TEXT,
    "target_type" TEXT NOT NULL,
    "target_id" TEXT,
    "target_name" TEXT,
    "ip" TEXT,
    "user_agent" TEXT,
    "request_id" TEXT,
    "changes" JSONB,

    CONSTRAINT "audit_event_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "audit_event_workspace_id_occurred_at_id_idx" ON "audit_event"("workspace_id", "occurred_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "audit_event_workspace_id_action_occurred_at_id_idx" ON "audit_event"("workspace_id", "action", "occurred_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "audit_event_workspace_id_action_group_occurred_at_id_idx" ON "audit_event"("workspace_id", "action_group", "occurred_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "audit_event_workspace_id_actor_type_occurred_at_id_idx" ON "audit_event"("workspace_id", "actor_type", "occurred_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "audit_event_workspace_id_actor_id_occurred_at_id_idx" ON "audit_event"("workspace_id", "actor_id", "occurred_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "audit_event_workspace_id_target_type_occurred_at_id_idx" ON "audit_event"("workspace_id", "target_type", "occurred_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "audit_event_workspace_id_target_id_occurred_at_id_idx" ON "audit_event"("workspace_id", "target_id", "occurred_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "audit_event_occurred_at_id_idx" ON "audit_event"("occurred_at", "id");

-- AddForeignKey
ALTER TABLE "audit_event" ADD CONSTRAINT "audit_event_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;
