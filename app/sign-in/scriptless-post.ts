import { headers } from 'next/headers';
import { env } from '@/server/env';
import { wrongOriginMessage, type AppAddress } from './wrong-origin';

export function appAddress(): AppAddress {
  const { appUrl, appOrigins } = env();
  return { appUrl, appOrigins };
}

/**
 * The forms post with `method="post"` so that, if their script has not run, the browser
 * sends the fields in a body to the page itself, never in a URL. A page is sent an
 * Origin header only then: say why nothing happened.
 */
export async function scriptlessPostProblem(path: string): Promise<string | null> {
  const origin = (await headers()).get('origin');
  if (origin === null) return null;
  const { appUrl, appOrigins } = appAddress();
  if (!appOrigins.includes(origin)) return wrongOriginMessage(origin, appUrl, path);
  return "Nothing was sent: the page's script had not loaded. Reload the page and try again.";
}
