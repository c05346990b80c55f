import { z } from 'zod';
import { WEBHOOK_MANAGE } from '../../keys/scopes';
import { projectIdOf } from '../../projects/projects';
import { PROJECT_NOT_FOUND } from '../../projects/types';
import { encodeCursor } from '../../schemas/task';
import { successSchema } from '../../schemas/common';
import { FORBIDDEN_ADDRESS, FORBIDDEN_PORT } from '../../webhooks/address';
import {
  ALREADY_WAITING,
  creatorOf,
  createEndpoint,
  deleteEndpoint,
  DELIVERY_NOT_FOUND,
  ENABLE_FIRST,
  ENDPOINT_NOT_FOUND,
  getDelivery,
  getEndpoint,
  listDeliveries,
  listEndpoints,
  parseEvents,
  previousSecretSignsUntil,
  resendDelivery,
  rotateSecret,
  sendTestEvent,
  setEndpointEnabled,
  TOO_MANY_ENDPOINTS,
  updateEndpoint,
} from '../../webhooks/endpoints';
import { EVENT_TYPES } from '../../webhooks/events';
import {
  createWebhookFields,
  deliveriesQuery,
  deliveryListSchema,
  deliveryPath,
  deliverySchema,
  MAX_DELIVERIES_PAGE,
  MAX_URL_LENGTH,
  rotateSecretFields,
  updateWebhookFields,
  webhookListSchema,
  endpointPath,
  webhookSchema,
  webhookWithSecretSchema,
} from '../../webhooks/schemas';
import { auditContextOf } from '../access';
import { operation } from '../operation';
import { router, workspaceProcedure } from '../trpc';

type Endpoint = Awaited<ReturnType<typeof getEndpoint>>;
type Delivery = Awaited<ReturnType<typeof getDelivery>>;

/** An endpoint as the API answers it: never its secret. */
function toWebhook(endpoint: Endpoint): z.output<typeof webhookSchema> {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: parseEvents(endpoint.events),
    project: endpoint.project,
    enabled: endpoint.disabledAt === null,
    disabledAt: endpoint.disabledAt?.toISOString() ?? null,
    disabledReason: endpoint.disabledReason,
    createdAt: endpoint.createdAt.toISOString(),
    createdBy: creatorOf(endpoint),
    previousSecretExpiresAt: previousSecretSignsUntil(endpoint)?.toISOString() ?? null,
  };
}

function toDelivery(delivery: Delivery): z.output<typeof deliverySchema> {
  return { ...delivery, createdAt: delivery.createdAt.toISOString(), updatedAt: delivery.updatedAt.toISOString() };
}

const webhookInput = z.object(endpointPath);
const urlErrors = [
  'url: must be an absolute http or https URL',
  'url: must not hold a user name or password',
  `url: must be 1 to ${MAX_URL_LENGTH} characters`,
  'url: must be https',
  FORBIDDEN_PORT,
  'url: <host> does not resolve',
  FORBIDDEN_ADDRESS,
];
const fieldErrors = [
  ...urlErrors,
  `events[<i>]: must be one of ${EVENT_TYPES.join(', ')}`,
  "events: audit.event is the whole workspace's; choose it on an endpoint for every project",
  'project: must be a project slug',
];
const endpointNotFound = [ENDPOINT_NOT_FOUND];
const badId = 'endpointId: must be a UUID';
const manage = () => workspaceProcedure(WEBHOOK_MANAGE);

export const webhooksRouter = router({
  list: manage()
    .meta(
      operation('GET', '/webhooks/endpoints', {
        summary: 'List webhook endpoints',
        tag: 'Webhooks',
        description:
          "The workspace's endpoints, newest first, without their secrets: all of them, a workspace has at most 20. Needs " +
          '`webhook:manage` on a key for every project.',
      }),
    )
    .input(z.object({}))
    .output(webhookListSchema)
    .query(async ({ ctx }) => ({ webhooks: (await listEndpoints(ctx.db, ctx.principal.workspaceId)).map(toWebhook) })),

  create: manage()
    .meta(
      operation('POST', '/webhooks/endpoints', {
        summary: 'Create a webhook endpoint',
        tag: 'Webhooks',
        description:
          "Subscribes a URL to the workspace's events (all project events unless `events` names some; one project's with " +
          '`project`, its slug), as an integration does when a user turns a workflow on. Keep the `id`: it names the subscription ' +
          'to delete when the workflow is turned off. The answer holds the signing secret, shown this once (a retry with the ' +
          'same Idempotency-Key gets it again; the record keeps it sealed). The same rules as the settings page: https, ' +
          'no address inside the network, at most 20 endpoints a workspace. The endpoint records the key or app that ' +
          'created it; revoking that key or app leaves it in place.',
        successStatus: 201,
        secretInAnswer: true,
        errors: { 400: fieldErrors, 404: [PROJECT_NOT_FOUND], 409: [TOO_MANY_ENDPOINTS] },
      }),
    )
    .input(createWebhookFields)
    .output(webhookWithSecretSchema)
    .mutation(async ({ ctx, input }) => {
      const workspaceId = ctx.principal.workspaceId;
      const projectId = input.project === null ? null : await projectIdOf(ctx.db, workspaceId, input.project);
      const { secret, ...endpoint } = await createEndpoint(
        ctx.db,
        workspaceId,
        { url: input.url, events: input.events, projectId, createdByKeyId: ctx.principal.keyId },
        auditContextOf(ctx.state, ctx.principal),
      );
      return { ...toWebhook(endpoint), secret };
    }),

  get: manage()
    .meta(
      operation('GET', '/webhooks/endpoints/{endpointId}', {
        summary: 'Get a webhook endpoint',
        tag: 'Webhooks',
        description: "One endpoint of the workspace, without its secret; another workspace's is not found.",
        errors: { 400: [badId], 404: endpointNotFound },
      }),
    )
    .input(webhookInput)
    .output(webhookSchema)
    .query(async ({ ctx, input }) => toWebhook(await getEndpoint(ctx.db, ctx.principal.workspaceId, input.endpointId))),

  update: manage()
    .meta(
      operation('PATCH', '/webhooks/endpoints/{endpointId}', {
        summary: 'Update a webhook endpoint',
        tag: 'Webhooks',
        description:
          'Changes the fields sent and keeps the others: `url`, `events`, `project` (a slug; null: every project), and ' +
          '`enabled` (false stops its deliveries; true resumes them, and clears why it was disabled). The URL is checked ' +
          'again as on create.',
        errors: { 400: [badId, ...fieldErrors], 404: [...endpointNotFound, PROJECT_NOT_FOUND] },
      }),
    )
    .input(updateWebhookFields.extend(endpointPath))
    .output(webhookSchema)
    .mutation(async ({ ctx, input }) => {
      const { endpointId, enabled, ...fields } = input;
      const workspaceId = ctx.principal.workspaceId;
      const audit = auditContextOf(ctx.state, ctx.principal);
      let endpoint = await getEndpoint(ctx.db, workspaceId, endpointId);
      if (fields.url !== undefined || fields.events !== undefined || fields.project !== undefined) {
        const projectId =
          fields.project === undefined
            ? endpoint.projectId
            : fields.project === null
              ? null
              : await projectIdOf(ctx.db, workspaceId, fields.project);
        const changed = { url: fields.url ?? endpoint.url, events: fields.events ?? parseEvents(endpoint.events), projectId };
        endpoint = await updateEndpoint(ctx.db, workspaceId, endpointId, changed, audit);
      }
      if (enabled !== undefined) endpoint = await setEndpointEnabled(ctx.db, workspaceId, endpointId, enabled, audit);
      return toWebhook(endpoint);
    }),

  delete: manage()
    .meta(
      operation('DELETE', '/webhooks/endpoints/{endpointId}', {
        summary: 'Delete a webhook endpoint',
        tag: 'Webhooks',
        description:
          'Unsubscribes: the endpoint and its deliveries are gone, and nothing more is sent to it. A second delete of the ' +
          'same id answers 404, as REST Hooks expects.',
        errors: { 400: [badId], 404: endpointNotFound },
      }),
    )
    .input(webhookInput)
    .output(successSchema)
    .mutation(async ({ ctx, input }) => {
      await deleteEndpoint(ctx.db, ctx.principal.workspaceId, input.endpointId, auditContextOf(ctx.state, ctx.principal));
      return { success: true as const };
    }),

  rotateSecret: manage()
    .meta(
      operation('POST', '/webhooks/endpoints/{endpointId}/rotate-secret', {
        summary: 'Rotate a webhook secret',
        tag: 'Webhooks',
        description:
          'A new signing secret, shown this once. The secret it replaces signs beside it for 24 hours (each delivery then ' +
          'carries both signatures), unless `expirePrevious` stops it at once. May come without a body.',
        bodyless: true,
        secretInAnswer: true,
        errors: { 400: [badId], 404: endpointNotFound },
      }),
    )
    .input(rotateSecretFields.extend(endpointPath))
    .output(webhookWithSecretSchema)
    .mutation(async ({ ctx, input }) => {
      const { secret, ...endpoint } = await rotateSecret(
        ctx.db,
        ctx.principal.workspaceId,
        input.endpointId,
        { expirePrevious: input.expirePrevious },
        auditContextOf(ctx.state, ctx.principal),
      );
      return { ...toWebhook(endpoint), secret };
    }),

  test: manage()
    .meta(
      operation('POST', '/webhooks/endpoints/{endpointId}/test', {
        summary: 'Send a test event',
        tag: 'Webhooks',
        description:
          'Sends the endpoint a `webhook.test` event now, whatever types it chose: signed, retried and recorded like any ' +
          'other delivery, which the answer is. May come without a body.',
        successStatus: 201,
        bodyless: true,
        errors: { 400: [badId], 404: endpointNotFound, 409: [ENABLE_FIRST] },
      }),
    )
    .input(webhookInput)
    .output(deliverySchema)
    .mutation(async ({ ctx, input }) => toDelivery(await sendTestEvent(ctx.db, ctx.principal.workspaceId, input.endpointId))),
});

export const webhookDeliveriesRouter = router({
  list: manage()
    .meta(
      operation('GET', '/webhooks/endpoints/{endpointId}/deliveries', {
        summary: 'List webhook deliveries',
        tag: 'Webhooks',
        description:
          "The endpoint's deliveries, newest first: each event's `webhook-id`, type, state, the attempts made and the last " +
          "one's status, time and error. Kept 30 days, and each endpoint's newest 50 whatever their age. Read on with " +
          '`after` = `meta.nextCursor`.',
        errors: {
          400: [badId, 'after: must be a cursor from meta.nextCursor', `limit: must be a whole number from 1 to ${MAX_DELIVERIES_PAGE}`],
          404: endpointNotFound,
        },
      }),
    )
    .input(deliveriesQuery.extend(endpointPath))
    .output(deliveryListSchema)
    .query(async ({ ctx, input }) => {
      const rows = await listDeliveries(ctx.db, ctx.principal.workspaceId, input.endpointId, {
        limit: input.limit + 1,
        after: input.after,
      });
      const page = rows.slice(0, input.limit);
      const last = page.at(-1);
      const hasMore = rows.length > input.limit;
      return {
        deliveries: page.map(toDelivery),
        meta: { hasMore, nextCursor: hasMore && last ? encodeCursor({ at: last.createdAt, id: last.id }) : null },
      };
    }),

  redeliver: manage()
    .meta(
      operation('POST', '/webhooks/endpoints/{endpointId}/deliveries/{deliveryId}/redeliver', {
        summary: 'Redeliver a webhook delivery',
        tag: 'Webhooks',
        description:
          'Sends a delivered or failed delivery again, with its own `webhook-id` and body (a receiver that deduplicates ' +
          'sees the same event), on a fresh retry schedule. Answers the delivery, pending again. May come without a body.',
        bodyless: true,
        errors: {
          400: [badId, 'deliveryId: must be a UUID'],
          404: [...endpointNotFound, DELIVERY_NOT_FOUND],
          409: [ENABLE_FIRST, ALREADY_WAITING],
        },
      }),
    )
    .input(z.object(deliveryPath))
    .output(deliverySchema)
    .mutation(async ({ ctx, input }) => {
      const workspaceId = ctx.principal.workspaceId;
      await resendDelivery(ctx.db, workspaceId, input.endpointId, input.deliveryId, auditContextOf(ctx.state, ctx.principal));
      return toDelivery(await getDelivery(ctx.db, workspaceId, input.endpointId, input.deliveryId));
    }),
});
