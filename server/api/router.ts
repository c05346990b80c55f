import { attachmentsRouter } from './routers/attachments';
import { auditEventsRouter } from './routers/audit-events';
import { commentsRouter } from './routers/comments';
import { labelsRouter } from './routers/labels';
import { meRouter } from './routers/me';
import { membersRouter } from './routers/members';
import { projectsRouter } from './routers/projects';
import { statusesRouter } from './routers/statuses';
import { tasksRouter } from './routers/tasks';
import { requestsRouter } from './routers/requests';
import { uploadsRouter } from './routers/uploads';
import { usageRouter } from './routers/usage';
import { webhookDeliveriesRouter, webhooksRouter } from './routers/webhooks';
import { router } from './trpc';

// trpc-to-openapi matches paths in registration order; no fixed path here sits
// behind a `{param}` path that could capture it (a test checks this).
export const publicRouter = router({
  statuses: statusesRouter,
  labels: labelsRouter,
  members: membersRouter,
  tasks: tasksRouter,
  comments: commentsRouter,
  attachments: attachmentsRouter,
  uploads: uploadsRouter,
  auditEvents: auditEventsRouter,
  requests: requestsRouter,
  usage: usageRouter,
  me: meRouter,
  projects: projectsRouter,
  webhooks: webhooksRouter,
  webhookDeliveries: webhookDeliveriesRouter,
});

export type PublicRouter = typeof publicRouter;
