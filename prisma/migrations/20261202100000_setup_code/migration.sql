-- The one-time setup code (server/setup/setup-code.ts): one row at most, whatever the
-- number of instances, sealed under a key derived from APP_SECRET; deleted in the
-- transaction that creates the first owner.
CREATE TABLE "setup_code" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "code_sealed" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "setup_code_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "setup_code_one_row" CHECK ("id" = 1)
);

-- One row per attempt at the setup code, for the per-address limit (server/setup/attempts.ts).
CREATE TABLE "setup_attempt" (
    "id" UUID NOT NULL,
    "address_key" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "setup_attempt_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "setup_attempt_address_key_created_at_idx" ON "setup_attempt"("address_key", "created_at");

-- CreateIndex
CREATE INDEX "setup_attempt_created_at_idx" ON "setup_attempt"("created_at");

-- The code is forgotten in the transaction that creates the first user, whichever way it
-- is created: /setup, the admin CLI (`member add`) or the demo seed.
CREATE FUNCTION "forget_setup_code"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "setup_code";
  DELETE FROM "setup_attempt";
  RETURN NULL;
END $$;

CREATE TRIGGER "user_forgets_setup_code" AFTER INSERT ON "user" FOR EACH STATEMENT EXECUTE FUNCTION "forget_setup_code"();
