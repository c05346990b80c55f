import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { TaskApi } from '../client.js';
import { ValidationError } from '../errors.js';
import { parseCsv } from './csv.js';
import { CliError, EXIT } from './exit-codes.js';
import { Lookups, TASK_FIELDS, type TaskBody, type TaskInput } from './task-fields.js';

/** What an import has created so far, kept beside the file: a run of the same command reads on from it. */
export interface ImportSummary {
  file: string;
  project: string;
  total: number;
  /** The file's rows created, in order: row 1 is the first after the header (or the array's first). */
  created: { row: number; id: string; externalId: string }[];
  /** SHA-256 of the rows created, as read from the file: a later run goes on only if they are unchanged. */
  createdRowsSha256: string;
  complete: boolean;
  /** Why the last run stopped, when it did. */
  error?: string;
}

// The batch endpoint takes 1 to 100 tasks and a body of at most 1 MiB.
const BATCH_TASKS = 100;
const BATCH_BYTES = 900_000;

/**
 * Creates the tasks of a CSV or JSON file through the batch endpoint, 100 a request,
 * each batch all or nothing. The summary is written after every batch; a run of the
 * same command after a failure or an interruption starts after the rows it lists,
 * provided the file still holds those rows (the row the API refused may have been
 * corrected). Each batch's Idempotency-Key is made of its rows and their place, so a
 * batch whose answer was lost is answered from the server's record (24 hours) when
 * sent again, not created twice.
 */
export async function importTasks(
  api: TaskApi,
  project: string,
  file: string,
  summaryFile: string,
  progress: (done: number, total: number) => void,
): Promise<ImportSummary> {
  const content = await fs.readFile(file).catch((error: Error) => {
    throw new CliError(`Cannot read ${file}: ${error.message}`, EXIT.usage);
  });
  const inputs = rowsOf(file, content.toString('utf8'));
  const summary = await previousSummary(summaryFile, project, file, inputs);
  const lookups = new Lookups(api, project);
  const bodies = await Promise.all(
    inputs.slice(summary.created.length).map((input, index) =>
      lookups.body(input).catch((error: unknown) => {
        throw error instanceof CliError
          ? new CliError(`row ${summary.created.length + index + 1}: ${error.message}`, error.exitCode)
          : error;
      }),
    ),
  );

  progress(summary.created.length, summary.total);
  try {
    for (const batch of batches(bodies)) {
      const first = summary.created.length;
      const idempotencyKey = `import-${project}-${first}-${digest(inputs.slice(first, first + batch.length)).slice(0, 32)}`;
      const answer = await api.tasks
        .createMany({ project, tasks: batch as { title: string }[] }, { idempotencyKey })
        .catch((error: unknown) => {
          throw atRow(error, first);
        });
      answer.tasks.forEach((task, index) => summary.created.push({ row: first + index + 1, id: task.id, externalId: task.externalId }));
      summary.createdRowsSha256 = digest(inputs.slice(0, summary.created.length));
      await save(summaryFile, summary);
      progress(summary.created.length, summary.total);
    }
  } catch (error) {
    summary.error = (error as Error).message;
    await save(summaryFile, summary);
    throw error;
  }
  summary.complete = true;
  delete summary.error;
  await save(summaryFile, summary);
  return summary;
}

/** The file's tasks: a JSON array of objects (or `{tasks: [...]}`), or CSV with a header row, columns named as the fields. */
function rowsOf(file: string, text: string): TaskInput[] {
  const json = path.extname(file).toLowerCase() === '.json' || /^\s*[[{]/.test(text);
  let records: Record<string, unknown>[];
  if (json) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new CliError(`${file} is not valid JSON: ${(error as Error).message}`, EXIT.invalid);
    }
    const list = Array.isArray(parsed) ? parsed : (parsed as { tasks?: unknown })?.tasks;
    if (!Array.isArray(list)) throw new CliError(`${file}: expected an array of tasks, or {"tasks": [...]}`, EXIT.invalid);
    records = list as Record<string, unknown>[];
  } else {
    records = parseCsv(text);
  }
  if (records.length === 0) throw new CliError(`${file} holds no tasks`, EXIT.invalid);
  return records.map((record, index) => taskInput(record, index + 1));
}

function taskInput(record: Record<string, unknown>, row: number): TaskInput {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) throw new CliError(`row ${row}: not an object`, EXIT.invalid);
  const input: TaskInput = {};
  for (const [column, value] of Object.entries(record)) {
    const field = (column === 'due' ? 'dueDate' : column) as keyof TaskInput;
    if (!TASK_FIELDS.includes(field)) {
      throw new CliError(`row ${row}: unknown column ${column} (columns: ${TASK_FIELDS.join(', ')})`, EXIT.invalid);
    }
    if (value === undefined || value === null || (value === '' && field !== 'description')) continue;
    if (field === 'assignees' || field === 'labels') {
      input[field] = Array.isArray(value)
        ? value.map(String)
        : String(value)
            .split(';')
            .map((name) => name.trim())
            .filter(Boolean);
    } else {
      input[field] = String(value);
    }
  }
  return input;
}

/** Up to 100 tasks, and within the body limit, a batch. */
function* batches(bodies: TaskBody[]): Generator<TaskBody[]> {
  let batch: TaskBody[] = [];
  let bytes = 0;
  for (const body of bodies) {
    const size = JSON.stringify(body).length * 3;
    if (batch.length === BATCH_TASKS || (batch.length > 0 && bytes + size > BATCH_BYTES)) {
      yield batch;
      batch = [];
      bytes = 0;
    }
    batch.push(body);
    bytes += size;
  }
  if (batch.length > 0) yield batch;
}

/** The API names a batch's item by its index (`tasks[3].title: …`): said as the file's row. */
function atRow(error: unknown, first: number): unknown {
  if (!(error instanceof ValidationError)) return error;
  const message = error.message.replace(/tasks\[(\d+)\]\.?/g, (_, index: string) => `row ${first + Number(index) + 1}: `);
  return new CliError(message, EXIT.invalid);
}

async function previousSummary(summaryFile: string, project: string, file: string, inputs: TaskInput[]): Promise<ImportSummary> {
  const text = await fs.readFile(summaryFile, 'utf8').catch(() => undefined);
  if (text === undefined) {
    return { file: path.basename(file), project, total: inputs.length, created: [], createdRowsSha256: digest([]), complete: false };
  }
  const summary = JSON.parse(text) as ImportSummary;
  const done = summary.created.length;
  if (summary.project !== project || done > inputs.length || summary.createdRowsSha256 !== digest(inputs.slice(0, done))) {
    throw new CliError(
      `${summaryFile} lists rows this file or project no longer has: remove it to import the file anew, or name another with --summary`,
      EXIT.usage,
    );
  }
  return { ...summary, total: inputs.length };
}

function digest(rows: TaskInput[]): string {
  return createHash('sha256').update(JSON.stringify(rows)).digest('hex');
}

async function save(summaryFile: string, summary: ImportSummary): Promise<void> {
  const partial = `${summaryFile}.${process.pid}.tmp`;
  await fs.writeFile(partial, `${JSON.stringify(summary, null, 2)}\n`);
  await fs.rename(partial, summaryFile);
}
