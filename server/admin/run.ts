import { randomUUID } from 'node:crypto';
import { cliContext } from '../audit/context';
import { AppError } from '../errors';
import { parseCommand, usage, UsageError } from './parse';

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** All of standard input, read only when a command asks for it. */
  stdin(): Promise<string>;
}

/**
 * Runs one admin command and answers its exit code: 0 done, 2 bad arguments or a
 * refused request, anything unexpected is thrown. With --json, stdout gets exactly
 * one JSON object; everything else goes to stderr.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === 'help') {
    io.stderr(`${usage()}\n`);
    return argv.length === 0 ? 2 : 0;
  }
  let parsed;
  try {
    parsed = await parseCommand(argv, io.stdin);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`${error.message}\n\n${usage()}\n`);
      return 2;
    }
    throw error;
  }
  // Imported after the arguments are checked, so a usage error answers at once.
  const { openDatabase } = await import('../db/open');
  const database = await openDatabase({ log: (line) => io.stderr(`${line}\n`) });
  try {
    // One id for the run: every event its command records names it as the request id.
    const record = await parsed.command.run(database.db, parsed.values, cliContext(randomUUID()));
    io.stdout(parsed.json ? `${JSON.stringify(record)}\n` : `${parsed.command.describe(record)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof AppError) {
      io.stderr(`${error.message}\n`);
      return 2;
    }
    throw error;
  } finally {
    await database.close();
  }
}
