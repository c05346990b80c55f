import { appsRouter } from './apps';
import { keysRouter } from './keys';
import { projectsRouter } from './projects';
import { setupRouter } from './setup';
import { webhooksRouter } from './webhooks';
import { createCallerFactory, router, type SettingsContext } from './trpc';

export const settingsRouter = router({
  apps: appsRouter,
  keys: keysRouter,
  projects: projectsRouter,
  setup: setupRouter,
  webhooks: webhooksRouter,
});

export type SettingsRouter = typeof settingsRouter;

/** For server components: the same procedures and checks, without the HTTP hop. */
export function settingsCaller(ctx: SettingsContext) {
  return createCallerFactory(settingsRouter)(ctx);
}
