import readline from 'node:readline';
import { CliError, EXIT } from './exit-codes.js';

/**
 * Reads a secret: at a terminal, after a prompt on stderr, with echo off (the
 * terminal in raw mode, nothing written back but the line's end); from a pipe,
 * its first line, so `task-api login < key-file` works in a script.
 */
export async function readSecret(prompt: string, input: NodeJS.ReadStream, output: NodeJS.WriteStream): Promise<string> {
  if (!input.isTTY) return firstLine(input);
  // Echo goes off before the prompt shows: whatever is typed after it is never written back.
  input.setRawMode(true);
  input.setEncoding('utf8');
  input.resume();
  output.write(prompt);
  return new Promise((resolve, reject) => {
    let value = '';
    function onData(chunk: string) {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') return finish(() => resolve(value));
        if (char === '\u0003' || char === '\u0004') return finish(() => reject(new CliError('Cancelled', EXIT.failure)));
        value = char === '\u007f' || char === '\b' ? value.slice(0, -1) : value + char;
      }
    }
    function finish(settle: () => void) {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      output.write('\n');
      settle();
    }
    input.on('data', onData);
  });
}

async function firstLine(input: NodeJS.ReadStream): Promise<string> {
  const lines = readline.createInterface({ input, crlfDelay: Infinity });
  for await (const line of lines) {
    lines.close();
    return line;
  }
  return '';
}
