-- CreateTable
CREATE TABLE "idempotency_record" (
    "api_key_id" UUID NOT NULL,
    "key" VARCHAR(255) NOT NULL,
    "fingerprint" CHAR(64) NOT NULL,
    "claim_token" UUID NOT NULL,
    "locked_until" TIMESTAMPTZ(3),
    "status" INTEGER,
    "body" TEXT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "idempotency_record_pkey" PRIMARY KEY ("api_key_id","key")
);

-- CreateIndex
CREATE INDEX "idempotency_record_expires_at_idx" ON "idempotency_record"("expires_at");

-- AddForeignKey
ALTER TABLE "idempotency_record" ADD CONSTRAINT "idempotency_record_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_key"("id") ON DELETE CASCADE ON UPDATE CASCADE;
