import type { Db } from '../db/client';
import type { Prisma } from '../db/generated/client';
import type { InTransaction } from '../db/transaction';

type Runner = Pick<Prisma.TransactionClient, '$queryRaw'>;

export interface AnnouncedWrite<Row, Answer> {
  /**
   * One statement that writes the row and says whether an endpoint wants its event;
   * with `alone`, it writes nothing when one does (`row` is then null).
   */
  write(runner: Runner, alone: boolean): Promise<{ row: Row | null; wanted: boolean }>;
  announce(tx: Prisma.TransactionClient, row: Row): Promise<void>;
  answer(row: Row): Answer;
}

/**
 * A write that is one statement when nobody listens: only when an endpoint wants
 * its event, or the caller adds work of its own (`inTransaction`), is it written
 * again inside a transaction, with the event and that work, so they commit together.
 */
export async function announcedWrite<Row, Answer>(
  db: Db,
  steps: AnnouncedWrite<Row, Answer>,
  inTransaction?: InTransaction<Answer>,
): Promise<Answer> {
  if (!inTransaction) {
    const { row } = await steps.write(db, true);
    if (row) return steps.answer(row);
  }
  return db.$transaction(async (tx) => {
    const { row, wanted } = await steps.write(tx, false);
    // Not alone, the statement always writes when its target exists.
    if (wanted) await steps.announce(tx, row!);
    const answer = steps.answer(row!);
    await inTransaction?.(tx, answer);
    return answer;
  });
}
