import type { Prisma } from './generated/client';

/**
 * Work a caller adds to a domain write's transaction, given what the write
 * produced: it commits with the write or not at all.
 */
export type InTransaction<T> = (tx: Prisma.TransactionClient, result: T) => Promise<void>;
