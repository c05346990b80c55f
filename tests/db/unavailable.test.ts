import { describe, expect, it } from 'vitest';
import { createDb, db } from '../../server/db/client';
import { asUnavailable } from '../../server/errors';
import { toPublicError } from '../../server/api/errors';
import { freePort } from '../support/ports';

describe('a database that cannot be reached', () => {
  it('is the error kind unavailable, answered 503 "Service temporarily unavailable"', async () => {
    const nowhere = createDb(`postgres://postgres@127.0.0.1:${await freePort()}/postgres`, 1);
    const error = await nowhere.workspace.count().catch((caught: unknown) => caught);
    const inTransaction = await nowhere.$transaction((tx) => tx.workspace.count()).catch((caught: unknown) => caught);
    await nowhere.$disconnect();

    expect(asUnavailable(error)?.kind).toBe('unavailable');
    expect(asUnavailable(inTransaction)?.kind).toBe('unavailable');
    expect(toPublicError(error)).toEqual({ statusCode: 503, message: 'Service temporarily unavailable' });
  });

  it('is not a statement the database refused', async () => {
    const error = await db()
      .$executeRawUnsafe('SELECT 1 / 0')
      .catch((caught: unknown) => caught);

    expect(asUnavailable(error)).toBeNull();
    expect(toPublicError(error).statusCode).toBe(500);
  });
});
