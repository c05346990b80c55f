import type { TaskApi } from '../client.js';
import type { Schemas } from '../types.js';
import { CliError, EXIT } from './exit-codes.js';

/** A task's fields as a person writes them: statuses, assignees and labels by name. */
export interface TaskInput {
  title?: string;
  description?: string;
  priority?: string;
  status?: string;
  dueDate?: string;
  assignees?: string[];
  labels?: string[];
}

export type TaskBody = {
  title?: string;
  description?: string | null;
  priority?: Schemas['Priority'];
  statusId?: string;
  dueDate?: string | null;
  assigneeIds?: string[];
  labelIds?: string[];
};

export const TASK_FIELDS: (keyof TaskInput)[] = ['title', 'description', 'priority', 'status', 'dueDate', 'assignees', 'labels'];
const CATEGORIES = ['todo', 'in_progress', 'done'] as const;

/**
 * The project's statuses, members and labels, each read once when first needed,
 * to turn the names a person types into the ids the API takes (ids pass as they are).
 */
export class Lookups {
  private statuses?: Promise<Schemas['Status'][]>;
  private members?: Promise<Schemas['Member'][]>;
  private labels?: Promise<Schemas['Label'][]>;

  constructor(
    private readonly api: TaskApi,
    private readonly project: string,
  ) {}

  /** A list filter: a category (`todo`, `in_progress`, `done`) as itself, a status by name or id. */
  async statusFilter(value: string): Promise<{ status: (typeof CATEGORIES)[number] } | { statusId: string }> {
    const category = CATEGORIES.find((name) => name === value.toLowerCase().replace(/[ -]/g, '_'));
    const byName = await this.statusId(value).catch((error: unknown) => {
      if (category) return undefined;
      throw error;
    });
    return byName ? { statusId: byName } : { status: category! };
  }

  async statusId(value: string): Promise<string> {
    this.statuses ??= this.api.statuses.list({ project: this.project });
    return find('status', value, await this.statuses, (status) => [status.id, status.name]);
  }

  async memberIds(values: string[]): Promise<string[]> {
    this.members ??= this.api.members.list({ project: this.project });
    const members = await this.members;
    return values.map((value) => find('assignee', value, members, (member) => [member.id, member.email, member.name]));
  }

  async labelIds(values: string[]): Promise<string[]> {
    this.labels ??= this.api.labels.list({ project: this.project });
    const labels = await this.labels;
    return values.map((value) => find('label', value, labels, (label) => [label.id, label.name]));
  }

  /** The body of a create or an update; an empty description or due date clears it. */
  async body(input: TaskInput): Promise<TaskBody> {
    const body: TaskBody = {};
    if (input.title !== undefined) body.title = input.title;
    if (input.description !== undefined) body.description = input.description === '' ? null : input.description;
    if (input.priority) body.priority = input.priority as Schemas['Priority'];
    if (input.status) body.statusId = await this.statusId(input.status);
    if (input.dueDate !== undefined) body.dueDate = input.dueDate === '' ? null : input.dueDate;
    if (input.assignees?.length) body.assigneeIds = await this.memberIds(input.assignees);
    if (input.labels?.length) body.labelIds = await this.labelIds(input.labels);
    return body;
  }
}

function find<T>(what: string, value: string, items: T[], keys: (item: T) => (string | null)[]): string {
  const wanted = value.trim().toLowerCase();
  const found = items.find((item) => keys(item).some((key) => key?.toLowerCase() === wanted));
  if (found) return keys(found)[0]!;
  const names = items.map((item) => keys(item)[1]).join(', ');
  throw new CliError(`No ${what} "${value}" in this project${names ? ` (${names})` : ''}`, EXIT.invalid);
}
