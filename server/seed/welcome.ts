import type { DemoLogins } from './demo';

/** Printed once, when the demo is seeded: the secrets in it are not stored anywhere readable. */
export function printWelcome(logins: DemoLogins, appUrl: string): void {
  const lines = [
    '',
    '  Task API is seeded with a demo workspace.',
    '',
    `  App:            ${appUrl}`,
    `  Settings page:  ${appUrl}/settings/api-keys`,
    `  Admin login:    ${logins.adminEmail} / ${logins.adminPassword}`,
    `  Demo API key:   ${logins.apiKey}   (all scopes; shown only now)`,
    '',
    '  Try it:',
    `  curl -H "Authorization: Bearer ${logins.apiKey}" ${appUrl}/v1/public/${logins.projectSlug}/tasks?limit=2`,
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
