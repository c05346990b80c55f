-- AlterTable
ALTER TABLE "webhook_endpoint" ADD COLUMN     "previous_secret_expires_at" TIMESTAMPTZ(3),
ADD COLUMN     "previous_secret_sealed" TEXT;
