-- A delivery a preview deployment recorded but did not send (server/webhooks/previews.ts).
ALTER TYPE "WebhookDeliveryStatus" ADD VALUE 'held';

-- Where an endpoint was created (VERCEL_ENV, or production; null: before this was recorded),
-- and whether previews send to it whatever that was.
ALTER TABLE "webhook_endpoint" ADD COLUMN "created_in" TEXT,
ADD COLUMN "deliver_on_previews" BOOLEAN NOT NULL DEFAULT false;
