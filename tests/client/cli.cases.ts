import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Attachment, Comment, Task } from '../../client/src/index';
import type { ClientContext } from './context';
import { CLI, runAtTerminal, runCli } from './support';

interface ImportSummary {
  total: number;
  created: { row: number; id: string; externalId: string }[];
  complete: boolean;
}

export function cliCases(context: ClientContext) {
  describe.sequential('the command line', () => {
    let home: string;
    let key: string;
    /** The environment of a script: the key and root from the variables, a config file of its own. */
    let env: Record<string, string | undefined>;
    /** The same with a key of its own for the imports, whose batches would leave the other commands little of the rate limit. */
    let importEnv: Record<string, string | undefined>;
    let taskId: string;

    beforeAll(async () => {
      home = await fs.mkdtemp(path.join(os.tmpdir(), 'taskapi-cli-'));
      key = await context.key(['task:read', 'task:create', 'task:update']);
      env = {
        TASK_API_KEY: key,
        TASK_API_URL: context.baseUrl,
        TASK_API_CONFIG: path.join(home, 'config', 'task-api.json'),
        TASK_API_PROJECT: undefined,
      };
      importEnv = { ...env, TASK_API_KEY: await context.key(['task:read', 'task:create']) };
    });

    afterAll(async () => {
      await fs.rm(home, { recursive: true, force: true });
    });

    it('creates, reads, updates and lists tasks, each --json output one JSON value', async () => {
      const created = await runCli<Task>(
        [
          'tasks',
          'create',
          '--project',
          'web',
          '--title',
          'From the command line',
          '--priority',
          'high',
          '--status',
          'In Progress',
          '--json',
        ],
        env,
      );
      expect([created.code, created.stderr]).toEqual([0, '']);
      expect([created.json.title, created.json.status?.name, created.json.priority]).toEqual([
        'From the command line',
        'In Progress',
        'high',
      ]);
      taskId = created.json.externalId;

      // No --project: WEB-12 is in project web.
      const read = await runCli<Task>(['tasks', 'get', taskId, '--json'], env);
      expect(read.json.id).toBe(created.json.id);

      const updated = await runCli<Task>(
        ['tasks', 'update', taskId, '--priority', 'low', '--label', 'bug', '--assignee', 'Ada Lovelace', '--json'],
        env,
      );
      expect([updated.code, updated.json.priority, updated.json.labels.map((label) => label.name)]).toEqual([0, 'low', ['bug']]);
      expect(updated.json.assignees.map((assignee) => assignee.name)).toEqual(['Ada Lovelace']);

      const listed = await runCli<Task[]>(['tasks', 'list', '--project', 'web', '--status', 'In Progress', '--json'], env);
      expect(listed.code).toBe(0);
      expect(listed.json.map((task) => task.id)).toContain(created.json.id);
      expect(new Set(listed.json.map((task) => task.status?.name))).toEqual(new Set(['In Progress']));
    });

    it('adds a comment and uploads a file by its path', async () => {
      const comment = await runCli<Comment>(['comments', 'add', taskId, 'Deployed to staging', '--json'], env);
      expect([comment.code, comment.json.content]).toEqual([0, 'Deployed to staging']);

      const file = path.join(home, 'report.txt');
      await fs.writeFile(file, 'All green.\n');
      const attachment = await runCli<Attachment>(['attachments', 'upload', taskId, file, '--json'], env);
      expect([attachment.code, attachment.json.filename, attachment.json.size, attachment.json.mimeType]).toEqual([
        0,
        'report.txt',
        11,
        'text/plain',
      ]);
    });

    it('shows people a table, and never the key', async () => {
      const listed = await runCli(['tasks', 'list', '--project', 'web', '--search', 'From the command line'], env);
      const [header, row] = listed.stdout.split('\n');
      expect(header).toMatch(/^ID +STATUS +PRIORITY +DUE +ASSIGNEES +TITLE$/);
      expect(row).toMatch(new RegExp(`^${taskId} +In Progress +low +Ada Lovelace +From the command line$`));
      const shown = await runCli(['tasks', 'get', taskId], env);
      expect(shown.stdout).toContain('Status:');
      expect(shown.stdout + shown.stderr + listed.stdout + listed.stderr).not.toContain(key);
    });

    it("exits with 3 and the server's message for a wrong key, and a code per kind of error", async () => {
      const wrong = { ...env, TASK_API_KEY: `tk_${'0'.repeat(40)}` };
      const refused = await runCli(['tasks', 'list', '--project', 'web'], wrong);
      expect([refused.code, refused.stdout]).toEqual([3, '']);
      expect(refused.stderr).toMatch(/^task-api: Invalid API key \(request [\w-]+\)\n$/);

      const asJson = await runCli(['tasks', 'list', '--project', 'web', '--json'], wrong);
      expect([asJson.code, JSON.parse(asJson.stderr)]).toEqual([
        3,
        { error: { kind: 'AuthenticationError', message: 'Invalid API key', statusCode: 401, requestId: expect.any(String) } },
      ]);
      expect((await runCli(['tasks', 'get', 'WEB-999999'], env)).code).toBe(5);
      expect((await runCli(['tasks', 'create', '--project', 'web', '--title', 'x'.repeat(501)], env)).code).toBe(7);
      expect((await runCli(['tasks', 'frobnicate'], env)).code).toBe(2);
    });

    it('says which key is in use, its workspace, scopes and rate limit, without printing the key', async () => {
      const asJson = await runCli<{ kind: string; workspace: { slug: string }; project: null; scopes: string[] }>(['me', '--json'], env);
      expect([asJson.code, asJson.stderr]).toEqual([0, '']);
      expect([asJson.json.kind, asJson.json.workspace.slug, asJson.json.project, asJson.json.scopes]).toEqual([
        'api_key',
        context.fx.workspace.slug,
        null,
        ['task:read', 'task:create', 'task:update'],
      ]);
      const shown = await runCli(['me'], env);
      expect(shown.code).toBe(0);
      expect(shown.stdout).toMatch(new RegExp(`^API key .+\\nworkspace  ${context.fx.workspace.slug} `));
      expect(shown.stdout).toContain('scopes     task:read, task:create, task:update\n');
      expect(shown.stdout + shown.stderr).not.toContain(key);
    });

    it('logs in with the key read from a pipe, keeps it in a file only its owner can read, and uses it', async () => {
      const config = { TASK_API_CONFIG: env.TASK_API_CONFIG, TASK_API_KEY: undefined, TASK_API_URL: undefined };
      const refused = await runCli(['login', '--url', context.baseUrl], config, `tk_${'1'.repeat(40)}\n`);
      expect(refused.code).toBe(3);
      await expect(fs.stat(env.TASK_API_CONFIG!)).rejects.toThrow();

      const login = await runCli(['login', '--url', context.baseUrl, '--project', 'web'], config, `${key}\n`);
      expect([login.code, login.stdout + login.stderr].join()).not.toContain(key);
      expect(login.code).toBe(0);
      expect((await fs.stat(env.TASK_API_CONFIG!)).mode & 0o777).toBe(0o600);
      expect((await fs.stat(path.dirname(env.TASK_API_CONFIG!))).mode & 0o777).toBe(0o700);

      const listed = await runCli<Task[]>(['tasks', 'list', '--json', '--limit', '1'], config);
      expect([listed.code, listed.json.length]).toEqual([0, 1]);
    });

    it('reads the key at a terminal without echoing it', async () => {
      const file = path.join(home, 'terminal.json');
      const session = await runAtTerminal(
        [process.execPath, CLI, 'login', '--url', context.baseUrl],
        { TASK_API_CONFIG: file },
        'API key: ',
        `${key}\r`,
      );

      expect(session.code).toBe(0);
      expect(session.screen).toContain('Signed in to');
      expect(session.screen).not.toContain(key);
      expect(JSON.parse(await fs.readFile(file, 'utf8')).key).toBe(key);
    });

    it('imports 1,000 tasks from a CSV file in batches, and goes on from its summary after a refused row', async () => {
      const file = path.join(home, 'tasks.csv');
      const rows = Array.from({ length: 1000 }, (_, i) => `"Imported ${i + 1}, from a file",${i % 2 ? 'high' : 'low'},To Do,bug`);
      rows[500] = `${'x'.repeat(501)},low,To Do,`;
      await fs.writeFile(file, `title,priority,status,labels\n${rows.join('\n')}\n`);
      const project = context.projects.import;

      const stopped = await runCli<ImportSummary>(['tasks', 'import', file, '--project', project, '--json'], importEnv);
      expect([stopped.code, JSON.parse(stopped.stderr).error.message]).toEqual([7, 'row 501: title: must be 1 to 500 characters']);
      const partial = JSON.parse(await fs.readFile(`${file}.import.json`, 'utf8')) as ImportSummary;
      expect([partial.created.length, partial.complete]).toEqual([500, false]);

      rows[500] = '"Imported 501, from a file",low,To Do,';
      await fs.writeFile(file, `title,priority,status,labels\n${rows.join('\n')}\n`);
      const imported = await runCli<ImportSummary>(['tasks', 'import', file, '--project', project, '--json'], importEnv);
      expect([imported.code, imported.stderr]).toEqual([0, '']);
      expect([imported.json.total, imported.json.created.length, imported.json.complete]).toEqual([1000, 1000, true]);
      expect(imported.json.created.map((row) => row.row)).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));

      const again = await runCli<ImportSummary>(['tasks', 'import', file, '--project', project, '--json'], importEnv);
      expect([again.code, again.json.created.length]).toEqual([0, 1000]);
      const api = await context.client();
      const stored = await api.tasks.list({ project, limit: 1 });
      expect(stored.meta.total).toBe(1000);
      const first = await api.tasks.get({ project, task: imported.json.created[0]!.externalId });
      expect([first.title, first.priority, first.labels.map((label) => label.name)]).toEqual(['Imported 1, from a file', 'low', ['bug']]);
    });

    it('shows an import’s progress as a bar at a terminal', async () => {
      const file = path.join(home, 'small.json');
      await fs.writeFile(file, JSON.stringify(Array.from({ length: 150 }, (_, i) => ({ title: `Small ${i}` }))));
      const session = await runAtTerminal(
        [process.execPath, CLI, 'tasks', 'import', file, '--project', context.projects.import],
        { TASK_API_KEY: importEnv.TASK_API_KEY!, TASK_API_URL: context.baseUrl, TASK_API_CONFIG: env.TASK_API_CONFIG! },
        '',
        '',
      );
      expect(session.code).toBe(0);
      expect(session.screen).toContain(`\r${'█'.repeat(20)}${'░'.repeat(10)} 100/150 tasks`);
      expect(session.screen).toContain(`\r${'█'.repeat(30)} 150/150 tasks`);
      expect(session.screen).toMatch(/Created 150 tasks in import \(IMPORT-\d+ to IMPORT-\d+\)/);
    });
  });
}
