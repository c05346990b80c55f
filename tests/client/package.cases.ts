import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TaskApi, VERSION, type Task } from '../../client/src/index';
import { runProcess } from '../support/cli';
import { PATIENCE_MS } from '../support/patience';
import { freePort } from '../support/ports';
import type { ClientContext } from './context';
import { CLIENT, installTarball, readmeBlocks } from './support';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/** What each of the README's scripts prints, by the heading it is under; a new example must be added here to be run. */
const SCRIPTS: Record<string, RegExp> = {
  'Quick start': /Created WEB-\d+ \(request [\w-]+\)\n$/,
  Pages: /^\d+ \d+ \d+ \d+\n$/,
  Retries: /^true true\n$/,
  'Changes that do not overwrite: If-Match': /^$/,
  Errors: /^404 Task not found [\w-]+\n$/,
  Uploads: /^notes\.txt 33 http\S+\n$/,
};
const RECEIVER = 'Webhooks';

/** A consumer's TypeScript, checked against the package's declarations alone (no Node.js types). */
const CONSUMER = `import { NotFoundError, TaskApi, verifyWebhook, type Task, type WebhookEvent } from '@task-api/client';

const api = new TaskApi({ apiKey: 'tk_example', baseUrl: 'https://tasks.example.com/v1/public' });

export async function openTitles(): Promise<string[]> {
  const titles: string[] = [];
  for await (const task of api.tasks.list({ project: 'web', status: 'todo' })) titles.push(task.title);
  return titles;
}

export async function find(id: string): Promise<Task | undefined> {
  try {
    return await api.tasks.get({ project: 'web', task: id });
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

export async function kind(headers: Headers, body: string): Promise<WebhookEvent['type']> {
  return (await verifyWebhook('whsec_c2VjcmV0', headers, body)).type;
}

// @ts-expect-error a create needs a title
export const untitled = () => api.tasks.create({ project: 'web' });
`;

export function packageCases(context: ClientContext) {
  describe.sequential('the package, installed from its tarball into an empty folder', () => {
    let folder: string;
    let env: Record<string, string>;

    beforeAll(async () => {
      folder = await installTarball(context.tarball);
      env = { TASK_API_KEY: await context.key(['task:read', 'task:create', 'task:update']), TASK_API_URL: context.baseUrl };
    });

    afterAll(async () => {
      await fs.rm(folder, { recursive: true, force: true });
    });

    it('holds the built ESM, its declarations and README, and installs nothing else', async () => {
      const listing = await runProcess('tar', ['-tzf', context.tarball]);
      const files = listing.stdout.split('\n').filter(Boolean);
      expect(files).toEqual(
        expect.arrayContaining(['package/package.json', 'package/README.md', 'package/dist/index.js', 'package/dist/index.d.ts']),
      );
      expect(files).toContain('package/dist/cli/main.js');
      expect(
        files.filter((file) => !file.startsWith('package/dist/') && !['package/package.json', 'package/README.md'].includes(file)),
      ).toEqual([]);

      const manifest = JSON.parse(await fs.readFile(path.join(folder, 'node_modules/@task-api/client/package.json'), 'utf8'));
      expect([manifest.type, manifest.dependencies, manifest.peerDependencies]).toEqual(['module', undefined, undefined]);
      // The User-Agent says the version the client was built as.
      expect(manifest.version).toBe(VERSION);
      expect((await fs.readdir(path.join(folder, 'node_modules'))).sort()).toEqual(['.bin', '.package-lock.json', '@task-api']);
    });

    it("type-checks a consumer's code against its declarations", async () => {
      await fs.writeFile(path.join(folder, 'consumer.ts'), CONSUMER);
      const options = {
        strict: true,
        noEmit: true,
        target: 'es2022',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        lib: ['es2023', 'dom'],
        types: [],
      };
      await fs.writeFile(path.join(folder, 'tsconfig.json'), JSON.stringify({ compilerOptions: options, files: ['consumer.ts'] }));

      const checked = await runProcess(process.execPath, [tsc, '-p', folder]);

      expect(checked.stdout + checked.stderr).toBe('');
      expect(checked.code).toBe(0);
    });

    it('runs the examples of its README as they are written, the quick start in five lines', async () => {
      const blocks = await readmeBlocks('js');
      expect(blocks.map((block) => block.heading).sort()).toEqual([...Object.keys(SCRIPTS), RECEIVER].sort());
      expect(blocks[0]!.code.trimEnd().split('\n')).toHaveLength(5);

      for (const { heading, code } of blocks.filter((block) => block.heading !== RECEIVER)) {
        const file = path.join(folder, 'example.mjs');
        await fs.writeFile(file, code);
        const ran = await runProcess(process.execPath, [file], { env, cwd: folder });
        expect([heading, ran.code, ran.stderr]).toEqual([heading, 0, '']);
        expect(ran.stdout, heading).toMatch(SCRIPTS[heading]!);
      }
    });

    it("runs the repository README's first request with the client, on this server's root", async () => {
      const [block, ...others] = await readmeBlocks('js', path.join(CLIENT, '../README.md'));
      expect([block?.heading, others]).toEqual(['With the official client', []]);
      const file = path.join(folder, 'first-request.mjs');
      await fs.writeFile(file, block!.code.replace('http://localhost:3000/v1/public', context.baseUrl));

      const ran = await runProcess(process.execPath, [file], { env, cwd: folder });

      expect([ran.code, ran.stderr]).toEqual([0, '']);
      expect(ran.stdout).toMatch(/^\[ .+, .+ \] \d+ [\w-]+\n$/);
    });

    it("runs its README's webhook receiver, which verifies and reports a delivery of the server", async () => {
      const port = await freePort();
      const code = (await readmeBlocks('js')).find((block) => block.heading === RECEIVER)!.code;
      await fs.writeFile(path.join(folder, 'receiver.mjs'), code);
      const secret = await context.webhook(`http://127.0.0.1:${port}/`);
      const receiver = spawn(process.execPath, ['receiver.mjs'], {
        cwd: folder,
        env: { ...process.env, WEBHOOK_SECRET: secret, PORT: String(port) },
      });
      let printed = '';
      receiver.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
      try {
        await vi.waitFor(() => connects(port), { timeout: PATIENCE_MS, interval: 50 });
        const api = new TaskApi({ apiKey: env.TASK_API_KEY!, baseUrl: context.baseUrl });
        const task: Task = await api.tasks.create({ project: context.projects.hooks, title: 'Heard by the README' });

        await vi.waitFor(() => expect(printed).toContain(`New task ${task.externalId}\n`), { timeout: PATIENCE_MS, interval: 100 });
      } finally {
        receiver.kill();
      }
    });

    it('runs its command line from node_modules/.bin', async () => {
      const listed = await runProcess<Task[]>(
        path.join(folder, 'node_modules/.bin/task-api'),
        ['tasks', 'list', '--project', 'web', '--limit', '2', '--json'],
        {
          env,
          cwd: folder,
        },
      );
      expect([listed.code, listed.stderr, listed.json.length]).toEqual([0, '', 2]);
    });
  });
}

function connects(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.end();
      resolve();
    });
    socket.on('error', reject);
  });
}
