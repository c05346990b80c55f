-- An attempt claims its delivery (a compare-and-set on this column) before it POSTs,
-- so two jobs that reach the same pending delivery do not both send it.
ALTER TABLE "webhook_delivery" ADD COLUMN "claimed_until" TIMESTAMPTZ(3);
