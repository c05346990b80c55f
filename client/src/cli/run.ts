import { parseArgs, type ParseArgsConfig } from 'node:util';
import { TaskApi } from '../client.js';
import { TaskApiError } from '../errors.js';
import type { Task, WithResponse } from '../types.js';
import { VERSION } from '../version.js';
import { credentials, DEFAULT_URL, readConfig, writeConfig, type Env } from './config.js';
import { CliError, EXIT, exitCodeOf } from './exit-codes.js';
import { importTasks } from './import.js';
import { readSecret } from './prompt.js';
import { size, taskDetail, taskRows } from './table.js';
import { Lookups, type TaskInput } from './task-fields.js';

export interface Io {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  env: Env;
}

const USAGE = `Usage: task-api <command> [options]

  login [--url URL] [--project SLUG]      save an API key (read without echo) in a file only you can read
  me                                      the key or app in use: workspace, project, scopes, rate limit
  tasks list [--status S] [--priority P] [--search TEXT] [--assignee WHO] [--label NAME]
             [--sort FIELD] [--order asc|desc] [--limit N | --all]
  tasks get ID
  tasks create --title T [--description D] [--priority P] [--status S] [--due DATE]
               [--assignee WHO]... [--label NAME]...
  tasks update ID [--title T] [--description D] [--priority P] [--status S] [--due DATE]
                  [--assignee WHO]... [--label NAME]...
  tasks import FILE [--summary FILE]      create the tasks of a CSV or JSON file, 100 a request
  comments add ID TEXT
  attachments upload ID PATH

Every command but login takes --project SLUG (default: TASK_API_PROJECT, the login's,
or an ID's prefix: WEB-12 is in project web) and --json (one JSON value on stdout).
The key comes from TASK_API_KEY, else from task-api login; the API's root from
TASK_API_URL, else from the login, else ${DEFAULT_URL}.
`;

type Values = Record<string, string | boolean | string[] | undefined>;
interface Command {
  options: NonNullable<ParseArgsConfig['options']>;
  positionals: string[];
  run(context: Context, values: Values, positionals: string[]): Promise<void>;
}

interface Context {
  io: Io;
  json: boolean;
  api(): Promise<TaskApi>;
  project(id?: string): Promise<string>;
  print(human: string, value: unknown): void;
}

const TASK_OPTIONS = {
  title: { type: 'string' },
  description: { type: 'string' },
  priority: { type: 'string' },
  status: { type: 'string' },
  due: { type: 'string' },
  assignee: { type: 'string', multiple: true },
  label: { type: 'string', multiple: true },
} as const;

const COMMANDS: Record<string, Command> = {
  login: {
    options: { url: { type: 'string' } },
    positionals: [],
    async run({ io, print }, values) {
      const config = await readConfig(io.env);
      const url = (values.url as string | undefined) ?? io.env.TASK_API_URL ?? config.url ?? DEFAULT_URL;
      const key = (await readSecret('API key: ', io.stdin, io.stderr)).trim();
      if (!key) throw new CliError('No key given', EXIT.usage);
      const api = new TaskApi({ apiKey: key, baseUrl: url });
      // Refused with 401 for a key that does not work: nothing is saved.
      const me = await api.me.get();
      const project = (values.project as string | undefined) ?? config.project;
      const file = await writeConfig(io.env, { url: api.baseUrl, key, ...(project && { project }) });
      print(
        `Signed in to ${api.baseUrl} as ${me.name} (workspace ${me.workspace.slug}); the key is kept in ${file}, readable by you only.\n`,
        {
          url: api.baseUrl,
          workspace: me.workspace.slug,
          config: file,
          project: project ?? null,
        },
      );
    },
  },
  me: {
    options: {},
    positionals: [],
    async run(context) {
      const me = await (await context.api()).me.get();
      const kind = me.kind === 'api_key' ? 'API key' : 'connected app';
      const lines = [
        `${kind} ${me.name} (${me.id})`,
        `workspace  ${me.workspace.slug} (${me.workspace.name})`,
        `project    ${me.project ? me.project.slug : 'every project'}`,
        `scopes     ${me.scopes.join(', ')}`,
        `expires    ${me.expiresAt ?? 'never'}`,
        `rate limit ${me.rateLimit.remaining ?? '?'} of ${me.rateLimit.limit} left in ${me.rateLimit.windowSeconds} s`,
      ];
      context.print(`${lines.join('\n')}\n`, me);
    },
  },
  'tasks list': {
    options: {
      status: { type: 'string' },
      priority: { type: 'string' },
      search: { type: 'string' },
      assignee: { type: 'string' },
      label: { type: 'string' },
      sort: { type: 'string' },
      order: { type: 'string' },
      limit: { type: 'string' },
      all: { type: 'boolean' },
    },
    positionals: [],
    async run(context, values) {
      const api = await context.api();
      const project = await context.project();
      const lookups = new Lookups(api, project);
      const wanted = values.all ? Infinity : wholeNumber(values.limit as string | undefined, 50);
      const status = values.status ? await lookups.statusFilter(values.status as string) : {};
      const tasks: Task[] = [];
      const list = api.tasks.list({
        project,
        ...status,
        priority: values.priority as Task['priority'] | undefined,
        search: values.search as string | undefined,
        assigneeId: values.assignee ? (await lookups.memberIds([values.assignee as string]))[0] : undefined,
        labelId: values.label ? (await lookups.labelIds([values.label as string]))[0] : undefined,
        sort: values.sort as 'createdAt' | undefined,
        order: values.order as 'asc' | undefined,
        limit: Math.min(100, wanted),
      });
      for await (const task of list) {
        if (tasks.length === wanted) break;
        tasks.push(task);
      }
      const { total } = (await list).meta;
      const more = total > tasks.length ? `${tasks.length} of ${total} tasks: --limit N or --all for more\n` : '';
      context.print(taskRows(tasks, context.io.stdout.isTTY ? context.io.stdout.columns : undefined) + more, tasks);
    },
  },
  'tasks get': {
    options: {},
    positionals: ['ID'],
    async run(context, _values, [id]) {
      const api = await context.api();
      showTask(context, await api.tasks.get({ project: await context.project(id), task: id! }));
    },
  },
  'tasks create': {
    options: TASK_OPTIONS,
    positionals: [],
    async run(context, values) {
      if (!values.title) throw new CliError('tasks create needs --title', EXIT.usage);
      const api = await context.api();
      const project = await context.project();
      const body = await new Lookups(api, project).body(taskInput(values));
      showTask(context, await api.tasks.create({ project, ...body, title: body.title! }));
    },
  },
  'tasks update': {
    options: TASK_OPTIONS,
    positionals: ['ID'],
    async run(context, values, [id]) {
      const api = await context.api();
      const project = await context.project(id);
      const body = await new Lookups(api, project).body(taskInput(values));
      if (Object.keys(body).length === 0) throw new CliError('tasks update needs a field to change, e.g. --priority high', EXIT.usage);
      showTask(context, await api.tasks.update({ project, task: id!, ...body }));
    },
  },
  'tasks import': {
    options: { summary: { type: 'string' } },
    positionals: ['FILE'],
    async run(context, values, [file]) {
      const api = await context.api();
      const project = await context.project();
      const summaryFile = (values.summary as string | undefined) ?? `${file}.import.json`;
      const summary = await importTasks(api, project, file!, summaryFile, progressBar(context.io.stderr));
      const [first, last] = [summary.created[0]?.externalId, summary.created.at(-1)?.externalId];
      const range = first ? ` (${first} to ${last})` : '';
      context.print(`Created ${summary.created.length} tasks in ${project}${range}; summary in ${summaryFile}\n`, summary);
    },
  },
  'comments add': {
    options: {},
    positionals: ['ID', 'TEXT'],
    async run(context, _values, [id, content]) {
      const api = await context.api();
      const comment = await api.comments.create({ project: await context.project(id), task: id!, content: content! });
      context.print(`Comment added to ${id} by ${comment.authorName ?? 'you'}\n`, comment);
    },
  },
  'attachments upload': {
    options: {},
    positionals: ['ID', 'PATH'],
    async run(context, _values, [id, file]) {
      const api = await context.api();
      const attachment = await api.attachments.upload({ project: await context.project(id), task: id! }, file!);
      context.print(`Attached ${attachment.filename} (${size(attachment.size)}, ${attachment.mimeType}) to ${id}\n`, attachment);
    },
  },
};

/** Runs one command line; resolves with its exit code. */
export async function run(argv: string[], io: Io): Promise<number> {
  const json = argv.includes('--json');
  try {
    if (argv.length === 0 || argv[0] === 'help' || argv[0] === '--help' || argv[0] === '-h') {
      io.stdout.write(USAGE);
      return EXIT.ok;
    }
    if (argv[0] === '--version') {
      io.stdout.write(`${VERSION}\n`);
      return EXIT.ok;
    }
    const name = COMMANDS[argv[0]!] ? argv[0]! : `${argv[0]} ${argv[1]}`;
    const command = COMMANDS[name];
    if (!command) throw new CliError(`Unknown command: ${argv.slice(0, 2).join(' ')}\n\n${USAGE}`);
    const { values, positionals } = parse(command, argv.slice(name.split(' ').length));
    await command.run(context(io, json, values), values, positionals);
    return EXIT.ok;
  } catch (error) {
    report(io, json, error);
    return exitCodeOf(error);
  }
}

function parse(command: Command, args: string[]): { values: Values; positionals: string[] } {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: { ...command.options, json: { type: 'boolean' }, project: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new CliError((error as Error).message);
  }
  if (parsed.positionals.length !== command.positionals.length) {
    throw new CliError(
      `Expected ${command.positionals.join(' ') || 'no arguments'}, got ${parsed.positionals.join(' ') || 'none'}\n\n${USAGE}`,
    );
  }
  return { values: parsed.values as Values, positionals: parsed.positionals };
}

function context(io: Io, json: boolean, values: Values): Context {
  let settings: Promise<Awaited<ReturnType<typeof credentials>>> | undefined;
  const load = () => (settings ??= credentials(io.env));
  return {
    io,
    json,
    async api() {
      const { key, url } = await load();
      return new TaskApi({ apiKey: key, baseUrl: url });
    },
    async project(id) {
      const named = (values.project as string | undefined) ?? (await load()).project;
      const prefix = id && /^([A-Za-z][A-Za-z0-9]*)-\d+$/.exec(id)?.[1];
      if (named ?? prefix) return named ?? prefix!.toLowerCase();
      throw new CliError('Which project? Pass --project SLUG, or set TASK_API_PROJECT');
    },
    print(human, value) {
      io.stdout.write(json ? `${JSON.stringify(value)}\n` : human);
    },
  };
}

function showTask(context: Context, task: WithResponse<Task>) {
  context.print(taskDetail(task, task.lastResponse.headers.etag), task);
}

function taskInput(values: Values): TaskInput {
  return {
    title: values.title as string | undefined,
    description: values.description as string | undefined,
    priority: values.priority as string | undefined,
    status: values.status as string | undefined,
    dueDate: values.due as string | undefined,
    assignees: values.assignee as string[] | undefined,
    labels: values.label as string[] | undefined,
  };
}

function wholeNumber(value: string | undefined, otherwise: number): number {
  if (value === undefined) return otherwise;
  if (!/^[1-9]\d*$/.test(value)) throw new CliError(`--limit: must be a whole number from 1, not ${value}`);
  return Number(value);
}

/** A bar redrawn in place on a terminal; nothing on a pipe, where it would be noise in a log. */
function progressBar(stream: NodeJS.WriteStream): (done: number, total: number) => void {
  if (!stream.isTTY) return () => {};
  return (done, total) => {
    const filled = Math.round((30 * done) / total);
    stream.write(`\r${'█'.repeat(filled)}${'░'.repeat(30 - filled)} ${done}/${total} tasks`);
    if (done === total) stream.write('\n');
  };
}

/** Errors go to stderr: the server's message and request id; with --json, as one JSON value. */
function report(io: Io, json: boolean, error: unknown) {
  const message = error instanceof Error ? error.message : String(error);
  if (json) {
    const { statusCode, requestId } = error instanceof TaskApiError ? error : { statusCode: undefined, requestId: undefined };
    const kind = error instanceof Error ? error.name : 'Error';
    io.stderr.write(`${JSON.stringify({ error: { kind, message, statusCode: statusCode ?? null, requestId: requestId ?? null } })}\n`);
    return;
  }
  const request = error instanceof TaskApiError && error.requestId ? ` (request ${error.requestId})` : '';
  io.stderr.write(`task-api: ${message}${request}\n`);
}
