import { parseArgs } from 'node:util';
import type { z } from 'zod';
import { commands, type Command } from './commands';

export class UsageError extends Error {}

export function usage(): string {
  const lines = Object.entries(commands).map(([name, command]) => `  ${name} ${command.usage}`);
  return `Usage: npm run --silent admin -- <command> [options] [--json]\n\nCommands:\n${lines.join('\n')}`;
}

/** The password a command takes with --password-stdin: standard input, less the one line break `echo` or a file ends with. */
function passwordFromStdin(text: string): string {
  return text.replace(/\r?\n$/, '');
}

/**
 * A command and its checked options. `readStdin` is called only for --password-stdin,
 * so that a password never has to be in the arguments, where `ps` and the shell's history see it.
 */
export async function parseCommand(
  argv: string[],
  readStdin: () => Promise<string> = async () => '',
): Promise<{ command: Command; values: Record<string, unknown>; json: boolean }> {
  const [group, action] = argv;
  // A command of one word (`usage`) or of two (`requests list`).
  const oneWord = group !== undefined && Object.hasOwn(commands, group);
  const name = oneWord ? group : `${group ?? ''} ${action ?? ''}`;
  const rest = argv.slice(oneWord ? 1 : 2);
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
  const { json, 'password-stdin': passwordStdin, ...values }: Record<string, unknown> = parsed.values;
  if (passwordStdin) {
    if (values.password !== undefined) throw new UsageError(`${name}: give --password-stdin or --password, not both`);
    values.password = passwordFromStdin(await readStdin());
  }
  const result = command.input.safeParse(values);
  if (!result.success) {
    // Named as typed: the option, never a path inside its parsed value (`--scopes.0`).
    const option = (issue: z.core.$ZodIssue) => {
      const field = String(issue.path[0] ?? '');
      return field === 'password' && passwordStdin ? 'password-stdin' : field;
    };
    const problems = result.error.issues.map((issue) => (issue.path.length > 0 ? `--${option(issue)}: ${issue.message}` : issue.message));
    throw new UsageError(`${name}: ${[...new Set(problems)].join('; ')}`);
  }
  return { command, values: result.data as Record<string, unknown>, json: Boolean(json) };
}
