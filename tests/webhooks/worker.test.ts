import { Prisma } from '../../server/db/generated/client';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { db } from '../../server/db/client';
import { startStatementCounter } from '../support/pg-counter';
import { startWebhookWorker, WORKER_APPLICATION_NAME } from '../../server/jobs/worker';

const uncaught: unknown[] = [];
const record = (error: unknown) => uncaught.push(error);
afterEach(() => {
  process.off('uncaughtException', record);
});

describe.runIf(inject('testDatabase').kind === 'postgres')('the webhook worker', () => {
  // A database restart, or a test dropping its database, ends every connection at once.
  it('stops without a crash when the database ends its connections right after', async () => {
    process.on('uncaughtException', record);
    // With graphile-worker's own pool, about one stop in three left an unheard connection.
    for (let round = 0; round < 10; round++) {
      const worker = await startWebhookWorker(process.env.DATABASE_URL!);
      await new Promise((resolve) => setTimeout(resolve, 100));
      await worker.stop();
      await db().$queryRaw(
        Prisma.sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = ${WORKER_APPLICATION_NAME} AND datname = current_database()`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(uncaught).toEqual([]);
  });
});

describe('the webhook worker', () => {
  it("hears every connection's errors itself: graphile-worker prints no warning of a pool without error handlers", async () => {
    const warn = vi.spyOn(console, 'warn');
    try {
      const worker = await startWebhookWorker(process.env.DATABASE_URL!);
      await worker.stop();
      expect(warn.mock.calls.flat().join('\n')).not.toMatch(/error handlers/);
    } finally {
      warn.mockRestore();
    }
  });

  // Prisma's client sets itself up on its first statements: on a busy machine that had taken the
  // first deliveries after a start seconds past their 201 (docs/tests.md, Deployment tests).
  it('has its Prisma client build and send a statement before it takes a job', async () => {
    const counter = await startStatementCounter(process.env.DATABASE_URL!);
    try {
      const worker = await startWebhookWorker(counter.url);
      const sent = counter.take().map((statement) => statement.text);
      await worker.stop();
      expect(sent.some((text) => /FROM "public"\."webhook_delivery"/.test(text))).toBe(true);
    } finally {
      await counter.close();
    }
  });
});
