import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDb, db, type Db } from '../../server/db/client';
import { createApiKey } from '../../server/keys/manage';
import { createEndpoint } from '../../server/webhooks/endpoints';
import { createWorkspaceFixture, FIXTURE_AUDIT, type WorkspaceFixture } from '../support/fixtures';
import { startStatementCounter, type StatementCounter } from '../support/pg-counter';

process.env.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = 'true';

let counter: StatementCounter;
let counted: Db;
let fx: WorkspaceFixture;

beforeAll(async () => {
  counter = await startStatementCounter(process.env.DATABASE_URL!);
  counted = createDb(counter.url, 1);
  fx = await createWorkspaceFixture();
});

afterAll(async () => {
  await counted.$disconnect();
  await counter.close();
});

async function statementsOfKeyCreate() {
  counter.take();
  await createApiKey(
    counted,
    fx.workspace.id,
    { name: `k-${randomUUID()}`, scopes: ['task:read'], projectId: null, expiresAt: null },
    null,
    FIXTURE_AUDIT,
  );
  return counter.take().map((statement) => statement.text);
}

it('recording an event is one statement in the change, whether no endpoint or some stream it', async () => {
  const quiet = await statementsOfKeyCreate();
  expect(quiet.filter((text) => text.includes('audit_event'))).toHaveLength(1);

  const endpoint = await createEndpoint(
    db(),
    fx.workspace.id,
    { url: 'http://127.0.0.1:9/siem', events: ['audit.event'], projectId: null },
    FIXTURE_AUDIT,
  );
  const streams = () => db().webhookDelivery.count({ where: { endpointId: endpoint.id, eventType: 'audit.event' } });
  // The endpoint's own creation is streamed to it too.
  const before = await streams();
  const streamed = await statementsOfKeyCreate();
  expect(streamed.length).toBe(quiet.length);
  expect(await streams()).toBe(before + 1);
});
