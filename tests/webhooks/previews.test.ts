import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../server/db/client';
import { env } from '../../server/env';
import { purgeStorage } from '../../server/retention/purge';
import { attemptDelivery } from '../../server/webhooks/deliver';
import { createEndpoint, resendDelivery, updateEndpoint } from '../../server/webhooks/endpoints';
import { createWorkspaceFixture, FIXTURE_AUDIT, type WorkspaceFixture } from '../support/fixtures';
import { startReceiver } from './receiver';

process.env.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = 'true';
// This process is a preview deployment's: what it creates is the preview's.
process.env.VERCEL_ENV = 'preview';

let fx: WorkspaceFixture;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  fx = await createWorkspaceFixture();
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

/** An endpoint as a deployment of `createdIn` made it (null: before deployments were told apart). */
async function endpoint(createdIn: string | null, deliverOnPreviews = false) {
  const path = randomUUID();
  const created = await createEndpoint(
    db(),
    fx.workspace.id,
    { url: receiver.url(path), events: [], projectId: null, deliverOnPreviews },
    FIXTURE_AUDIT,
  );
  await db().webhookEndpoint.update({ where: { id: created.id }, data: { createdIn } });
  return { ...created, path };
}

/** One delivery to the endpoint, attempted once by this deployment. */
async function attempt(endpointId: string) {
  const delivery = await db().webhookDelivery.create({
    data: { endpointId, messageId: `msg_${randomUUID()}`, eventType: 'task.created', payload: '{"type":"task.created"}' },
  });
  await attemptDelivery(db(), delivery.id);
  return db().webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } });
}

describe('a preview deployment', () => {
  it('sends, signed, to an endpoint created on a preview', async () => {
    const hook = await endpoint('preview');
    expect((await db().webhookEndpoint.findUniqueOrThrow({ where: { id: hook.id } })).createdIn).toBe('preview');
    expect(await attempt(hook.id)).toMatchObject({ status: 'delivered', attempts: 1 });
    const [request] = receiver.received(hook.path);
    expect(new Webhook(hook.secret).verify(request!.body, request!.headers)).toEqual({ type: 'task.created' });
  });

  it('holds, with why and without an attempt, the deliveries to an endpoint made by production or before deployments were told apart', async () => {
    for (const [createdIn, origin] of [
      ['production', 'created on a production deployment'],
      [null, 'created before deployments were told apart'],
    ] as const) {
      const hook = await endpoint(createdIn);
      const held = await attempt(hook.id);
      expect(held).toMatchObject({ status: 'held', attempts: 0, responseCode: null, claimedUntil: null });
      expect(held.lastError).toBe(
        `Held by this preview deployment: the endpoint was ${origin} and is not marked for previews. ` +
          'Edit it and check "Deliver from preview deployments", or set WEBHOOKS_ON_PREVIEWS=all, then resend.',
      );
      expect(receiver.received(hook.path)).toEqual([]);
    }
  });

  it('sends to an endpoint of production marked for previews', async () => {
    const hook = await endpoint('production', true);
    expect(await attempt(hook.id)).toMatchObject({ status: 'delivered' });
    expect(receiver.received(hook.path)).toHaveLength(1);
  });

  it('sends a held delivery once its endpoint is marked for previews and it is resent; the mark is in the audit log', async () => {
    const hook = await endpoint('production');
    const held = await attempt(hook.id);
    expect(held.status).toBe('held');
    await updateEndpoint(
      db(),
      fx.workspace.id,
      hook.id,
      { url: receiver.url(hook.path), events: [], projectId: null, deliverOnPreviews: true },
      FIXTURE_AUDIT,
    );
    expect(await db().auditEvent.findFirst({ where: { action: 'webhook_endpoint.updated', targetId: hook.id } })).toMatchObject({
      changes: { deliverOnPreviews: { before: false, after: true } },
    });
    await resendDelivery(db(), fx.workspace.id, hook.id, held.id, FIXTURE_AUDIT);
    await attemptDelivery(db(), held.id);
    expect(await db().webhookDelivery.findUniqueOrThrow({ where: { id: held.id } })).toMatchObject({
      status: 'delivered',
      lastError: null,
    });
    expect(receiver.received(hook.path)).toHaveLength(1);
  });

  it('with WEBHOOKS_ON_PREVIEWS=all, sends to every endpoint', async () => {
    // As the configuration parsed once says: this file's, changed for this case only.
    const config = env();
    config.webhooksOnPreviews = 'all';
    try {
      const hook = await endpoint('production');
      expect(await attempt(hook.id)).toMatchObject({ status: 'delivered' });
    } finally {
      config.webhooksOnPreviews = 'own';
    }
  });
});

describe('the purge on a preview', () => {
  it("purges the database, but leaves alone the Blob store, which may be production's, and the rows naming its objects", async () => {
    // An Idempotency-Key record belongs to a key.
    await fx.key();
    const apiKeyId = (await db().apiKey.findFirstOrThrow({ where: { workspaceId: fx.workspace.id }, select: { id: true } })).id;
    const dayAgo = new Date(Date.now() - 24 * 3_600_000);
    await db().idempotencyRecord.create({
      data: { apiKeyId, key: 'expired', fingerprint: '0'.repeat(64), claimToken: randomUUID(), expiresAt: dayAgo },
    });
    const upload = await db().pendingUpload.create({
      data: {
        workspaceId: fx.workspace.id,
        storageKey: `upload-${randomUUID()}`,
        filename: 'a.txt',
        mimeType: 'text/plain',
        size: 1,
        expiresAt: dayAgo,
      },
    });

    const report = await purgeStorage(db());
    expect(report).toMatchObject({ idempotencyRecords: 1, uploads: 0, orphanedObjects: 0 });
    expect(await db().pendingUpload.findUnique({ where: { id: upload.id } })).not.toBeNull();
  });
});
