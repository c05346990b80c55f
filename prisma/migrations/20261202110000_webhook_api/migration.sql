-- The key or app (its grant's api_key row) that created an endpoint through the public API;
-- null for one made in the settings page or the admin CLI. Keys and grants are revoked, never
-- deleted, so the endpoint keeps naming its creator.
ALTER TABLE "webhook_endpoint" ADD COLUMN "created_by_key_id" UUID;

CREATE INDEX "webhook_endpoint_created_by_key_id_idx" ON "webhook_endpoint"("created_by_key_id");

ALTER TABLE "webhook_endpoint" ADD CONSTRAINT "webhook_endpoint_created_by_key_id_fkey" FOREIGN KEY ("created_by_key_id") REFERENCES "api_key"("id") ON DELETE SET NULL ON UPDATE CASCADE;
