-- CreateIndex
CREATE INDEX "webhook_delivery_created_at_id_idx" ON "webhook_delivery"("created_at", "id");
