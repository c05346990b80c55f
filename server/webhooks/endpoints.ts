import type { AuditContext } from '../audit/context';
import { recordAudit } from '../audit/record';
import type { Db } from '../db/client';
import { env } from '../env';
import { badRequest, conflict, notFound, nullIfMissing } from '../errors';
import { deliverJob } from '../outbox/delivery-job';
import { noteDeliveryQueued } from '../outbox/request-scope';
import { PROJECT_NOT_FOUND } from '../projects/types';
import { FORBIDDEN_ADDRESS, FORBIDDEN_PORT, isAllowedPort, isForbiddenAddress, privateAddressesAllowed, resolveHost } from './address';
import { enqueueTestEvent, EVENT_TYPES, WORKSPACE_EVENT_TYPES, type EventType } from './events';
import { newSigningSecret, sealSecret } from './secret';

export const ENDPOINT_NOT_FOUND = 'Webhook endpoint not found';
export const DELIVERY_NOT_FOUND = 'Webhook delivery not found';
export const ENABLE_FIRST = 'Enable the endpoint before sending a delivery again';
export const ALREADY_WAITING = 'This delivery is already waiting to be sent';
const MAX_URL_LENGTH = 2000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/**
 * Endpoints a workspace may have, as GitHub allows 20 webhooks per repository: every
 * event is one delivery row and one request per endpoint, so the cap bounds what one
 * change costs. An integration that wants more can fan out from one receiver.
 */
export const MAX_ENDPOINTS_PER_WORKSPACE = 20;
export const TOO_MANY_ENDPOINTS = `A workspace has at most ${MAX_ENDPOINTS_PER_WORKSPACE} webhook endpoints: delete one before adding another`;

export interface EndpointInput {
  url: string;
  /** Empty: every event type. */
  events: EventType[];
  projectId: string | null;
  /** Sent to from preview deployments too (server/webhooks/previews.ts); unset: false for a new one, unchanged for an update. */
  deliverOnPreviews?: boolean;
}

const endpointSelect = {
  id: true,
  url: true,
  events: true,
  projectId: true,
  project: { select: { id: true, slug: true } },
  disabledAt: true,
  disabledReason: true,
  createdAt: true,
  previousSecretExpiresAt: true,
  createdIn: true,
  deliverOnPreviews: true,
  createdByKey: { select: { id: true, name: true, revokedAt: true, grant: { select: { id: true } } } },
} as const;

/** Who created an endpoint through the public API: a key, or an app; null for the settings page and the admin CLI. */
export function creatorOf(endpoint: {
  createdByKey: { id: string; name: string; revokedAt: Date | null; grant: { id: string } | null } | null;
}): { kind: 'api_key' | 'app'; id: string; name: string; revoked: boolean } | null {
  const key = endpoint.createdByKey;
  return key && { kind: key.grant ? 'app' : 'api_key', id: key.id, name: key.name, revoked: key.revokedAt !== null };
}

const deliverySelect = {
  id: true,
  messageId: true,
  eventType: true,
  status: true,
  attempts: true,
  responseCode: true,
  durationMs: true,
  lastError: true,
  createdAt: true,
  updatedAt: true,
} as const;

/**
 * https only, on 443 or an unprivileged port, and not to an address inside the network:
 * checked again at every delivery. Where private addresses are allowed (development,
 * tests) http and every port are too.
 */
async function checkUrl(url: string): Promise<void> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badRequest('url: must be an absolute http or https URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw badRequest('url: must be an absolute http or https URL');
  if (parsed.username || parsed.password) throw badRequest('url: must not hold a user name or password');
  if (url.length > MAX_URL_LENGTH) throw badRequest(`url: must be at most ${MAX_URL_LENGTH} characters`);
  if (privateAddressesAllowed()) return;
  if (parsed.protocol !== 'https:') throw badRequest('url: must be https');
  if (!isAllowedPort(parsed)) throw badRequest(FORBIDDEN_PORT);
  let addresses: string[];
  try {
    addresses = await resolveHost(parsed);
  } catch {
    throw badRequest(`url: ${parsed.hostname} does not resolve`);
  }
  if (addresses.some(isForbiddenAddress)) throw badRequest(FORBIDDEN_ADDRESS);
}

export function parseEvents(names: string[]): EventType[] {
  const unknown = names.filter((name) => !(EVENT_TYPES as readonly string[]).includes(name));
  if (unknown.length > 0) throw badRequest(`events: ${unknown[0]} is not an event; use ${EVENT_TYPES.join(', ')}`);
  return [...new Set(names)] as EventType[];
}

/** The events and project of an endpoint, checked together: a workspace's events go to endpoints of the whole workspace. */
async function checkScope(db: Db, workspaceId: string, input: EndpointInput): Promise<EventType[]> {
  const events = parseEvents(input.events);
  if (!input.projectId) return events;
  const workspaceEvent = events.find((type) => (WORKSPACE_EVENT_TYPES as readonly string[]).includes(type));
  if (workspaceEvent) throw badRequest(`events: ${workspaceEvent} is the whole workspace's; choose it on an endpoint for every project`);
  const project = await db.project.findFirst({ where: { id: input.projectId, workspaceId }, select: { id: true } });
  if (!project) throw notFound(PROJECT_NOT_FOUND);
  return events;
}

/**
 * The URL as the audit log names it: without its query and fragment, where receivers
 * sometimes carry a token of their own.
 */
export function urlWithoutQuery(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return '';
  }
}

const audited = (endpoint: { url: string; events: string[]; projectId: string | null; deliverOnPreviews: boolean }) => ({
  url: urlWithoutQuery(endpoint.url),
  events: endpoint.events,
  projectId: endpoint.projectId,
  deliverOnPreviews: endpoint.deliverOnPreviews,
});

const endpointTarget = (endpoint: { id: string; url: string }) => ({
  type: 'webhook_endpoint' as const,
  id: endpoint.id,
  name: urlWithoutQuery(endpoint.url),
});

/**
 * Saves an endpoint and returns it with its signing secret, which is never shown again.
 * `createdByKeyId`: the key or app (its grant's api_key row) that asked, through the public API.
 */
export async function createEndpoint(
  db: Db,
  workspaceId: string,
  input: EndpointInput & { createdByKeyId?: string | null },
  audit: AuditContext,
) {
  await checkUrl(input.url);
  const events = await checkScope(db, workspaceId, input);
  const secret = newSigningSecret();
  const endpoint = await db.$transaction(async (tx) => {
    // The workspace's row, locked, makes parallel creates count one after another.
    await tx.$queryRaw`SELECT 1 FROM workspace WHERE id = ${workspaceId}::uuid FOR UPDATE`;
    if ((await tx.webhookEndpoint.count({ where: { workspaceId } })) >= MAX_ENDPOINTS_PER_WORKSPACE) throw conflict(TOO_MANY_ENDPOINTS);
    const created = await tx.webhookEndpoint.create({
      data: {
        workspaceId,
        url: input.url,
        events,
        projectId: input.projectId,
        secretSealed: sealSecret(secret),
        // Which deployment made it: a preview sends only to its own (server/webhooks/previews.ts).
        createdIn: env().deploymentEnvironment,
        deliverOnPreviews: input.deliverOnPreviews ?? false,
        createdByKeyId: input.createdByKeyId ?? null,
      },
      select: endpointSelect,
    });
    await recordAudit(tx, workspaceId, audit, {
      action: 'webhook_endpoint.created',
      target: endpointTarget(created),
      after: audited(created),
    });
    return created;
  });
  return { ...endpoint, secret };
}

/** Changes an endpoint's URL, events and project; a change that changes nothing records nothing. */
export async function updateEndpoint(db: Db, workspaceId: string, id: string, input: EndpointInput, audit: AuditContext) {
  if (!UUID.test(id)) throw notFound(ENDPOINT_NOT_FOUND);
  await checkUrl(input.url);
  const events = await checkScope(db, workspaceId, input);
  return db.$transaction(async (tx) => {
    const [current] = await tx.$queryRaw<{ url: string; events: string[]; projectId: string | null; deliverOnPreviews: boolean }[]>`
      SELECT url, events, project_id::text AS "projectId", deliver_on_previews AS "deliverOnPreviews" FROM webhook_endpoint
      WHERE id = ${id}::uuid AND workspace_id = ${workspaceId}::uuid FOR UPDATE`;
    if (!current) throw notFound(ENDPOINT_NOT_FOUND);
    const updated = await tx.webhookEndpoint.update({
      where: { id },
      data: { url: input.url, events, projectId: input.projectId, deliverOnPreviews: input.deliverOnPreviews },
      select: endpointSelect,
    });
    const before = { ...audited(current), url: current.url };
    if (JSON.stringify(before) !== JSON.stringify({ ...audited(updated), url: updated.url })) {
      await recordAudit(tx, workspaceId, audit, {
        action: 'webhook_endpoint.updated',
        target: endpointTarget(updated),
        before: audited(current),
        after: audited(updated),
      });
    }
    return updated;
  });
}

export function listEndpoints(db: Db, workspaceId: string) {
  return db.webhookEndpoint.findMany({ where: { workspaceId }, orderBy: [{ createdAt: 'desc' }, { id: 'asc' }], select: endpointSelect });
}

export async function deleteEndpoint(db: Db, workspaceId: string, id: string, audit: AuditContext): Promise<void> {
  if (!UUID.test(id)) throw notFound(ENDPOINT_NOT_FOUND);
  await db.$transaction(async (tx) => {
    const [deleted] = await tx.$queryRaw<{ url: string; events: string[]; projectId: string | null; deliverOnPreviews: boolean }[]>`
      DELETE FROM webhook_endpoint WHERE id = ${id}::uuid AND workspace_id = ${workspaceId}::uuid
      RETURNING url, events, project_id::text AS "projectId", deliver_on_previews AS "deliverOnPreviews"`;
    if (!deleted) throw notFound(ENDPOINT_NOT_FOUND);
    await recordAudit(tx, workspaceId, audit, {
      action: 'webhook_endpoint.deleted',
      target: endpointTarget({ id, url: deleted.url }),
      before: audited(deleted),
    });
  });
}

/**
 * The endpoint's deliveries, newest first, `limit` of them from after `after` (the last one
 * of a page before), through the index on (endpoint_id, created_at).
 */
export async function listDeliveries(
  db: Db,
  workspaceId: string,
  endpointId: string,
  { limit = 50, after }: { limit?: number; after?: { at: Date; id: string } } = {},
) {
  if (!UUID.test(endpointId)) throw notFound(ENDPOINT_NOT_FOUND);
  const endpoint = await db.webhookEndpoint.findFirst({ where: { id: endpointId, workspaceId }, select: { id: true } });
  if (!endpoint) throw notFound(ENDPOINT_NOT_FOUND);
  return db.webhookDelivery.findMany({
    where: {
      endpointId,
      ...(after && { OR: [{ createdAt: { lt: after.at } }, { createdAt: after.at, id: { lt: after.id } }] }),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit,
    select: deliverySelect,
  });
}

/** One delivery of one of the workspace's endpoints. */
export async function getDelivery(db: Db, workspaceId: string, endpointId: string, deliveryId: string) {
  if (!UUID.test(endpointId) || !UUID.test(deliveryId)) throw notFound(DELIVERY_NOT_FOUND);
  const delivery = await db.webhookDelivery.findFirst({
    where: { id: deliveryId, endpointId, endpoint: { workspaceId } },
    select: deliverySelect,
  });
  if (!delivery) throw notFound(DELIVERY_NOT_FOUND);
  return delivery;
}

/**
 * Sends the endpoint a `webhook.test` event now, signed and retried like any other and
 * recorded as one of its deliveries, whatever event types it chose.
 */
export async function sendTestEvent(db: Db, workspaceId: string, endpointId: string) {
  const endpoint = await getEndpoint(db, workspaceId, endpointId);
  if (endpoint.disabledAt) throw conflict(ENABLE_FIRST);
  const deliveryId = await db.$transaction((tx) => enqueueTestEvent(tx, endpointId));
  return getDelivery(db, workspaceId, endpointId, deliveryId);
}

/** One of the workspace's endpoints. */
export async function getEndpoint(db: Db, workspaceId: string, id: string) {
  if (!UUID.test(id)) throw notFound(ENDPOINT_NOT_FOUND);
  const endpoint = await db.webhookEndpoint.findFirst({ where: { id, workspaceId }, select: endpointSelect });
  if (!endpoint) throw notFound(ENDPOINT_NOT_FOUND);
  return endpoint;
}

/** How long a secret a rotation replaced keeps signing beside the new one: Svix's day. */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 3_600_000;

/** Until when the secret the last rotation replaced still signs beside the new one, as of `at`; null once it does not. */
export function previousSecretSignsUntil(endpoint: { previousSecretExpiresAt: Date | null }, at = new Date()): Date | null {
  const until = endpoint.previousSecretExpiresAt;
  return until && until > at ? until : null;
}

/**
 * A new signing secret, returned once. The old one signs beside it for a day, so a
 * receiver can take the new one without failing a delivery; with `expirePrevious`
 * (it leaked) it stops with the next attempt. A second rotation within the day
 * drops the secret before the old one: two sign at most.
 */
export async function rotateSecret(db: Db, workspaceId: string, id: string, { expirePrevious = false } = {}, audit: AuditContext) {
  if (!UUID.test(id)) throw notFound(ENDPOINT_NOT_FOUND);
  const secret = newSigningSecret();
  const expiresAt = expirePrevious ? null : new Date(Date.now() + PREVIOUS_SECRET_GRACE_MS);
  await db.$transaction(async (tx) => {
    // One statement, so the secret kept is the one this rotation replaced.
    const [rotated] = await tx.$queryRaw<{ url: string }[]>`
      UPDATE webhook_endpoint
      SET previous_secret_sealed = CASE WHEN ${!expirePrevious} THEN secret_sealed END,
          previous_secret_expires_at = ${expiresAt}::timestamptz, secret_sealed = ${sealSecret(secret)}
      WHERE id = ${id}::uuid AND workspace_id = ${workspaceId}::uuid
      RETURNING url`;
    if (!rotated) throw notFound(ENDPOINT_NOT_FOUND);
    await recordAudit(tx, workspaceId, audit, {
      action: 'webhook_endpoint.secret_rotated',
      target: endpointTarget({ id, url: rotated.url }),
    });
  });
  return { ...(await getEndpoint(db, workspaceId, id)), secret };
}

/** Disabled by hand, with that as its reason; enabling clears whatever disabled it. */
export async function setEndpointEnabled(db: Db, workspaceId: string, id: string, enabled: boolean, audit: AuditContext) {
  const current = await getEndpoint(db, workspaceId, id);
  if (enabled === (current.disabledAt === null)) return current;
  const changed = await nullIfMissing(
    db.$transaction(async (tx) => {
      // Only the change that finds the endpoint as it was records it: two at once record one event.
      const endpoint = await tx.webhookEndpoint.update({
        where: { id, disabledAt: enabled ? { not: null } : null },
        data: enabled
          ? { disabledAt: null, disabledReason: null }
          : { disabledAt: new Date(), disabledReason: `Disabled by ${audit.actor.name}.` },
        select: endpointSelect,
      });
      await recordAudit(tx, workspaceId, audit, {
        action: enabled ? 'webhook_endpoint.enabled' : 'webhook_endpoint.disabled',
        target: endpointTarget(endpoint),
        before: { enabled: !enabled },
        after: { enabled },
      });
      return endpoint;
    }),
  );
  return changed ?? getEndpoint(db, workspaceId, id);
}

/**
 * Sends a delivery again with its own webhook-id and body, so a receiver that
 * deduplicates sees the same event: it becomes pending with a fresh retry
 * schedule and is queued on the same graphile-worker job as any other.
 */
export async function resendDelivery(
  db: Db,
  workspaceId: string,
  endpointId: string,
  deliveryId: string,
  audit: AuditContext,
): Promise<void> {
  const endpoint = await getEndpoint(db, workspaceId, endpointId);
  if (endpoint.disabledAt) throw conflict(ENABLE_FIRST);
  if (!UUID.test(deliveryId)) throw notFound(DELIVERY_NOT_FOUND);
  await db.$transaction(async (tx) => {
    const [resent] = await tx.$queryRaw<{ message_id: string; event_type: string }[]>`
      UPDATE webhook_delivery SET status = 'pending', attempts = 0, updated_at = now()
      WHERE id = ${deliveryId}::uuid AND endpoint_id = ${endpointId}::uuid AND status <> 'pending'
      RETURNING message_id, event_type`;
    if (!resent) {
      const exists = await tx.webhookDelivery.findFirst({ where: { id: deliveryId, endpointId }, select: { id: true } });
      throw exists ? conflict(ALREADY_WAITING) : notFound(DELIVERY_NOT_FOUND);
    }
    await tx.$executeRaw`SELECT ${deliverJob(deliveryId)}`;
    await recordAudit(tx, workspaceId, audit, {
      action: 'webhook_delivery.resent',
      target: { type: 'webhook_delivery', id: deliveryId, name: `${resent.event_type} ${resent.message_id}` },
    });
  });
  noteDeliveryQueued();
}
