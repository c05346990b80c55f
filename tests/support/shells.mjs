import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Where `npm test`'s pretest unpacks Debian's zsh on a machine that has none. */
export const BUNDLED_ZSH = fileURLToPath(new URL('../../node_modules/.cache/task-api/zsh', import.meta.url));

/** The zsh the tests read command lines with: the machine's, else the one pretest brought, else none. */
export function findZsh() {
  return ['/usr/bin/zsh', '/bin/zsh', BUNDLED_ZSH].find((candidate) => fs.existsSync(candidate));
}
