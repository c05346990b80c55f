import type pg from 'pg';
import type { Db } from '../../server/db/client';
import { Prisma } from '../../server/db/generated/client';

/** A statement the product built, sent through pg as it is: its text and values, nothing added. */
export async function send<T extends pg.QueryResultRow>(client: pg.Pool | pg.PoolClient, statement: Prisma.Sql): Promise<T[]> {
  const { rows } = await client.query<T>(statement.text, statement.values);
  return rows;
}

/**
 * The database as the product's read functions see it (`authenticateKey`,
 * `getTask`, `listTasks`), on a plain pg pool: its `$queryRaw` builds the
 * statement from the template exactly as Prisma's does and sends it with
 * `send`. The floor hands it to those functions, so its reads are the product's
 * statements by construction, without Prisma's client between them and the
 * pool. Whatever else a function asks of it throws, naming what: those reads
 * are raw statements, and the floor serves nothing else.
 */
export function rawStatementsDb(pool: pg.Pool): Db {
  const $queryRaw = (query: TemplateStringsArray | Prisma.Sql, ...values: Prisma.Sql['values']) =>
    send(pool, query instanceof Prisma.Sql ? query : Prisma.sql(query, ...values));
  return new Proxy({ $queryRaw } as object, {
    get(target, property) {
      if (property === '$queryRaw') return $queryRaw;
      // Looked for by `await` and by inspection: absent, as on any plain object.
      if (typeof property === 'symbol' || property === 'then') return undefined;
      throw new Error(`The floor's database sends raw statements only: a product function asked it for ${property}`);
    },
  }) as Db;
}
