import type { Db } from '../db/client';
import { badRequest, notFound } from '../errors';
import { FORBIDDEN_ADDRESS, isForbiddenAddress, privateAddressesAllowed, resolveHost } from './address';
import { EVENT_TYPES, type EventType } from './events';
import { newSigningSecret, sealSecret } from './secret';

export const ENDPOINT_NOT_FOUND = 'Webhook endpoint not found';
const MAX_URL_LENGTH = 2000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface EndpointInput {
  url: string;
  /** Empty: every event type. */
  events: EventType[];
  projectId: string | null;
}

const endpointSelect = {
  id: true,
  url: true,
  events: true,
  projectId: true,
  disabledAt: true,
  disabledReason: true,
  createdAt: true,
} as const;

/**
 * https only (http too where private addresses are allowed, in development), and
 * not to an address inside the network: checked again at every delivery.
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

/** Saves an endpoint and returns it with its signing secret, which is never shown again. */
export async function createEndpoint(db: Db, workspaceId: string, input: EndpointInput) {
  await checkUrl(input.url);
  if (input.projectId) {
    const project = await db.project.findFirst({ where: { id: input.projectId, workspaceId }, select: { id: true } });
    if (!project) throw notFound('Project not found');
  }
  const secret = newSigningSecret();
  const endpoint = await db.webhookEndpoint.create({
    data: { workspaceId, url: input.url, events: parseEvents(input.events), projectId: input.projectId, secretSealed: sealSecret(secret) },
    select: endpointSelect,
  });
  return { ...endpoint, secret };
}

export function listEndpoints(db: Db, workspaceId: string) {
  return db.webhookEndpoint.findMany({ where: { workspaceId }, orderBy: [{ createdAt: 'desc' }, { id: 'asc' }], select: endpointSelect });
}

export async function deleteEndpoint(db: Db, workspaceId: string, id: string): Promise<void> {
  if (!UUID.test(id)) throw notFound(ENDPOINT_NOT_FOUND);
  const { count } = await db.webhookEndpoint.deleteMany({ where: { id, workspaceId } });
  if (count === 0) throw notFound(ENDPOINT_NOT_FOUND);
}

/** The endpoint's last deliveries, newest first. */
export async function listDeliveries(db: Db, workspaceId: string, endpointId: string, limit = 50) {
  if (!UUID.test(endpointId)) throw notFound(ENDPOINT_NOT_FOUND);
  const endpoint = await db.webhookEndpoint.findFirst({ where: { id: endpointId, workspaceId }, select: { id: true } });
  if (!endpoint) throw notFound(ENDPOINT_NOT_FOUND);
  return db.webhookDelivery.findMany({
    where: { endpointId },
    orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
    take: limit,
    select: {
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
    },
  });
}
