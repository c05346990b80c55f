import { parseArgs } from 'node:util';
import { commands, type Command } from './commands';

export class UsageError extends Error {}

export function usage(): string {
  const lines = Object.entries(commands).map(([name, command]) => `  ${name} ${command.usage}`);
  return `Usage: npm run --silent admin -- <command> [options] [--json]\n\nCommands:\n${lines.join('\n')}`;
}

export function parseCommand(argv: string[]): { command: Command; values: Record<string, unknown>; json: boolean } {
  const [group, action, ...rest] = argv;
  const name = `${group ?? ''} ${action ?? ''}`;
  const command = commands[name];
  if (!command) throw new UsageError(group ? `Unknown command: ${name.trim()}` : 'No command given');
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      options: { ...command.options, json: { type: 'boolean' } },
      strict: true,
      allowPositionals: false,
    });
  } catch (error) {
    throw new UsageError(`${name}: ${(error as Error).message}`);
  }
  const { json, ...values } = parsed.values;
  const result = command.input.safeParse(values);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `--${issue.path.join('.')}: ${issue.message}`);
    throw new UsageError(`${name}: ${problems.join('; ')}`);
  }
  return { command, values: result.data as Record<string, unknown>, json: Boolean(json) };
}
