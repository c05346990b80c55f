import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { launchBrowser } from '../e2e/browser';
import type { ClientContext } from './context';
import { CLIENT, serveFolder } from './support';

// What the page runs, as plain JavaScript: the built package imported as a web app's module.
const IN_THE_PAGE = `async ({ apiKey, baseUrl, webhook }) => {
  const { NotFoundError, PreconditionFailedError, TaskApi, verifyWebhook } = await import('/index.js');
  const api = new TaskApi({ apiKey, baseUrl });
  const task = await api.tasks.create({ project: 'web', title: 'From a browser' });
  await api.tasks.createMany({ project: 'web', tasks: [{ title: 'From a browser, two' }, { title: 'From a browser, three' }] });
  const etag = task.lastResponse.headers.etag;
  await api.tasks.update({ project: 'web', task: task.id, priority: 'high' }, { ifMatch: etag });
  const stale = await api.tasks.update({ project: 'web', task: task.id, priority: 'low' }, { ifMatch: etag }).catch((error) => error);
  const walked = [];
  for await (const listed of api.tasks.list({ project: 'web', search: 'From a browser', limit: 1 })) walked.push(listed.title);
  const file = new File(['hello'], 'hello.txt', { type: 'text/plain' });
  const multipart = await api.attachments.upload({ project: 'web', task: task.id }, file);
  const direct = await new TaskApi({ apiKey, baseUrl, directUploadAbove: 0 }).attachments.upload({ project: 'web', task: task.id }, file);
  const missing = await api.tasks.get({ project: 'web', task: 'WEB-999999' }).catch((error) => error);
  const event = await verifyWebhook(webhook.secret, new Headers(webhook.headers), webhook.body);
  const tampered = await verifyWebhook(webhook.secret, webhook.headers, webhook.body + ' ').catch((error) => error.name);
  return {
    answer: [task.lastResponse.status, typeof task.lastResponse.requestId, /^"/.test(etag)],
    stale: [stale instanceof PreconditionFailedError, stale.statusCode, stale.current && stale.current.priority],
    walked: walked.sort(),
    uploads: [multipart.filename, direct.filename, direct.size],
    missing: [missing instanceof NotFoundError, missing.statusCode, missing.message],
    webhook: [event.type, tampered],
  };
}`;

export function browserCases(context: ClientContext) {
  describe.sequential('the client in a browser (Chromium)', () => {
    it('calls the API from another origin: writes, pages, If-Match, both uploads, errors, and webhook signatures', async () => {
      const site = await serveFolder(path.join(CLIENT, 'dist'));
      const browser = await launchBrowser(site.origin);
      try {
        const page = await browser.context.newPage();
        await page.goto(`${site.origin}/`);
        const secret = `whsec_${randomBytes(24).toString('base64')}`;
        const body = JSON.stringify({ type: 'task.created', timestamp: new Date().toISOString(), data: {} });
        const now = new Date();
        const webhook = {
          secret,
          body,
          headers: {
            'webhook-id': 'msg_browser',
            'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
            'webhook-signature': new Webhook(secret).sign('msg_browser', now, body),
          },
        };

        const result = await page.evaluate(
          `(${IN_THE_PAGE})(${JSON.stringify({ apiKey: await context.key(), baseUrl: context.baseUrl, webhook })})`,
        );

        expect(result).toEqual({
          answer: [201, 'string', true],
          stale: [true, 412, 'high'],
          walked: ['From a browser', 'From a browser, three', 'From a browser, two'],
          uploads: ['hello.txt', 'hello.txt', 5],
          missing: [true, 404, 'Task not found'],
          webhook: ['task.created', 'WebhookVerificationError'],
        });
      } finally {
        await browser.close();
        await site.close();
      }
    });
  });
}
