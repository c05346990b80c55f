import type { Task } from '../types.js';

/**
 * Columns padded to their widest cell; the last one cut to the terminal's width
 * with an ellipsis when the output is a terminal, whole when it is a pipe.
 */
export function table(header: string[], rows: string[][], columns: number | undefined): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: string[]) => {
    const padded = cells.map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]!)));
    const text = padded.join('  ');
    return columns && text.length > columns ? `${text.slice(0, columns - 1)}…` : text;
  };
  return [line(header), ...rows.map(line)].join('\n') + '\n';
}

export function taskRows(tasks: Task[], columns: number | undefined): string {
  return table(
    ['ID', 'STATUS', 'PRIORITY', 'DUE', 'ASSIGNEES', 'TITLE'],
    tasks.map((task) => [
      task.externalId,
      task.status?.name ?? task.category,
      task.priority,
      task.dueDate?.slice(0, 10) ?? '',
      task.assignees.map((assignee) => assignee.name ?? assignee.id).join(', '),
      task.title,
    ]),
    columns,
  );
}

/** One task for a person to read: its fields, then its description. */
export function taskDetail(task: Task, etag: string | undefined): string {
  const fields: [string, string][] = [
    ['Status', task.status ? `${task.status.name} (${task.category})` : task.category],
    ['Priority', task.priority],
    ['Due', task.dueDate ?? ''],
    ['Assignees', task.assignees.map((assignee) => assignee.name ?? assignee.id).join(', ')],
    ['Labels', task.labels.map((label) => label.name).join(', ')],
    ['Attachments', task.attachments.map((attachment) => attachment.filename).join(', ')],
    ['Created', task.createdAt],
    ['Updated', task.updatedAt],
    ['ETag', etag ?? ''],
  ];
  const shown = fields.filter(([, value]) => value !== '');
  const width = Math.max(...shown.map(([name]) => name.length)) + 2;
  const lines = [`${task.externalId}  ${task.title}`, ...shown.map(([name, value]) => `${`${name}:`.padEnd(width)}${value}`)];
  return `${lines.join('\n')}\n${task.description ? `\n${task.description}\n` : ''}`;
}

export function size(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}
