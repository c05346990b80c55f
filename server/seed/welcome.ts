import type { Db } from '../db/client';
import { TASK_SCOPES } from '../keys/scopes';
import type { DemoLogins } from './demo';

/** One shell word in bash and zsh alike: quoted unless it is plain (zsh globs an unquoted `?`). */
function quote(word: string): string {
  return /^[\w./:,=@%+-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The `curl` line that lists two tasks of the demo project with the demo key. */
export function curlLine(appUrl: string, apiKey: string, projectSlug: string): string {
  return `curl -H ${quote(`Authorization: Bearer ${apiKey}`)} ${quote(`${appUrl}/v1/public/${projectSlug}/tasks?limit=2`)}`;
}

/** The admin CLI command that mints a key with every scope in a workspace. */
export function keyCreateCommand(workspaceSlug: string): string {
  return `npm run --silent admin -- key create --workspace ${quote(workspaceSlug)} --name 'My key' --scopes ${TASK_SCOPES.join(',')}`;
}

/** Printed once, when the demo is seeded: the secrets in it are not stored anywhere readable. */
export function welcomeLines(logins: DemoLogins, appUrl: string): string[] {
  return [
    '',
    '  Task API is seeded with a demo workspace.',
    '',
    `  Admin login:    ${logins.adminEmail} / ${logins.adminPassword}`,
    `  Demo API key:   ${logins.apiKey}   (all scopes; shown only now)`,
    '',
    '  Try it:',
    `  ${curlLine(appUrl, logins.apiKey, logins.projectSlug)}`,
  ];
}

/**
 * Printed at every start on the embedded database: where the app is, which workspace the
 * admin CLI should name, and how to mint a key once the first one is lost.
 */
export async function startLines(db: Db, appUrl: string): Promise<string[]> {
  const workspace = await db.workspace.findFirst({ orderBy: { createdAt: 'asc' }, select: { slug: true } });
  const lines = ['', `  App:            ${appUrl}`, `  API reference:  ${appUrl}/docs`, `  Settings page:  ${appUrl}/settings/api-keys`];
  if (!workspace) return [...lines, `  No workspace yet: create one at ${appUrl}/setup`, ''];
  return [
    ...lines,
    `  Workspace:      ${workspace.slug}`,
    '',
    '  A new API key, from another terminal:',
    `  ${keyCreateCommand(workspace.slug)}`,
    '',
  ];
}

export function printLines(lines: string[]): void {
  process.stdout.write(`${lines.join('\n')}\n`);
}
