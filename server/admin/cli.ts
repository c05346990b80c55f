import { defaultMode, runMain } from '../launch/main';
import { runCli } from './run';

// `npm run --silent admin -- <group> <action> [options] [--json]`
runMain(defaultMode(), () =>
  runCli(process.argv.slice(2), {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    stdin: async () => {
      let text = '';
      for await (const chunk of process.stdin.setEncoding('utf8')) text += chunk;
      return text;
    },
  }),
);
