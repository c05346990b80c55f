import { z } from 'zod';
import { db } from '../db/client';
import {
  creatorOf,
  createEndpoint,
  deleteEndpoint,
  listDeliveries,
  listEndpoints,
  previousSecretSignsUntil,
  resendDelivery,
  rotateSecret,
  setEndpointEnabled,
  updateEndpoint,
} from '../webhooks/endpoints';
import { EVENT_TYPES } from '../webhooks/events';
import { heldBecause } from '../webhooks/previews';
import { router, webhookManagerProcedure } from './trpc';

type Endpoint = Awaited<ReturnType<typeof listEndpoints>>[number];
type Delivery = Awaited<ReturnType<typeof listDeliveries>>[number];

/** What the page shows of an endpoint: never its secret, dates as ISO text. */
function toEndpointView(endpoint: Endpoint) {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    projectId: endpoint.projectId,
    createdAt: endpoint.createdAt.toISOString(),
    disabledAt: endpoint.disabledAt?.toISOString() ?? null,
    disabledReason: endpoint.disabledReason,
    /** Until when the secret the last rotation replaced still signs beside the new one; null once it does not. */
    previousSecretExpiresAt: previousSecretSignsUntil(endpoint)?.toISOString() ?? null,
    deliverOnPreviews: endpoint.deliverOnPreviews,
    /** Why this deployment (a preview) holds its deliveries instead of sending them; null when it sends them. */
    heldHere: heldBecause(endpoint),
    /** The key or app that added it through the API; null: added here or with the admin CLI. */
    createdBy: creatorOf(endpoint),
  };
}

function toDeliveryView(delivery: Delivery) {
  return {
    id: delivery.id,
    messageId: delivery.messageId,
    eventType: delivery.eventType,
    status: delivery.status,
    attempts: delivery.attempts,
    responseCode: delivery.responseCode,
    durationMs: delivery.durationMs,
    lastError: delivery.lastError,
    createdAt: delivery.createdAt.toISOString(),
    updatedAt: delivery.updatedAt.toISOString(),
  };
}

export type EndpointView = ReturnType<typeof toEndpointView>;
export type DeliveryView = ReturnType<typeof toDeliveryView>;

const endpointId = z.object({ id: z.string() });
const endpointFields = z.object({
  url: z.string().max(2000),
  events: z.array(z.enum(EVENT_TYPES)).max(EVENT_TYPES.length),
  projectId: z.string().nullable(),
  deliverOnPreviews: z.boolean().optional(),
});

export const webhooksRouter = router({
  list: webhookManagerProcedure.query(async ({ ctx }) => (await listEndpoints(db(), ctx.workspace.id)).map(toEndpointView)),

  // The secret leaves the server here and in rotate only: the page shows it once.
  create: webhookManagerProcedure.input(endpointFields).mutation(async ({ ctx, input }) => {
    const { secret, ...endpoint } = await createEndpoint(db(), ctx.workspace.id, input, ctx.audit);
    return { endpoint: toEndpointView(endpoint), secret };
  }),

  update: webhookManagerProcedure.input(endpointFields.extend(endpointId.shape)).mutation(async ({ ctx, input }) => {
    const { id, ...fields } = input;
    return toEndpointView(await updateEndpoint(db(), ctx.workspace.id, id, fields, ctx.audit));
  }),

  rotate: webhookManagerProcedure
    .input(endpointId.extend({ expirePrevious: z.boolean().default(false) }))
    .mutation(async ({ ctx, input }) => {
      const { secret, ...endpoint } = await rotateSecret(
        db(),
        ctx.workspace.id,
        input.id,
        { expirePrevious: input.expirePrevious },
        ctx.audit,
      );
      return { endpoint: toEndpointView(endpoint), secret };
    }),

  setEnabled: webhookManagerProcedure
    .input(endpointId.extend({ enabled: z.boolean() }))
    .mutation(async ({ ctx, input }) =>
      toEndpointView(await setEndpointEnabled(db(), ctx.workspace.id, input.id, input.enabled, ctx.audit)),
    ),

  delete: webhookManagerProcedure.input(endpointId).mutation(async ({ ctx, input }) => {
    await deleteEndpoint(db(), ctx.workspace.id, input.id, ctx.audit);
    return { id: input.id };
  }),

  deliveries: webhookManagerProcedure
    .input(endpointId)
    .query(async ({ ctx, input }) => (await listDeliveries(db(), ctx.workspace.id, input.id)).map(toDeliveryView)),

  resend: webhookManagerProcedure.input(endpointId.extend({ deliveryId: z.string() })).mutation(async ({ ctx, input }) => {
    await resendDelivery(db(), ctx.workspace.id, input.id, input.deliveryId, ctx.audit);
    return { id: input.deliveryId };
  }),
});
