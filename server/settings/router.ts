import { appsRouter } from './apps';
import { auditRouter } from './audit';
import { keysRouter } from './keys';
import { projectsRouter } from './projects';
import { requestsRouter } from './requests';
import { setupRouter } from './setup';
import { usageRouter } from './usage';
import { webhooksRouter } from './webhooks';
import { createCallerFactory, router, type SettingsContext } from './trpc';

export const settingsRouter = router({
  apps: appsRouter,
  audit: auditRouter,
  keys: keysRouter,
  projects: projectsRouter,
  requests: requestsRouter,
  setup: setupRouter,
  usage: usageRouter,
  webhooks: webhooksRouter,
});

export type SettingsRouter = typeof settingsRouter;

/** For server components: the same procedures and checks, without the HTTP hop. */
export function settingsCaller(ctx: SettingsContext) {
  return createCallerFactory(settingsRouter)(ctx);
}
