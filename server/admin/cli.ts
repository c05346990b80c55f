import { runCli } from './run';
import { loadEnvFiles } from '../launch/load-env';

loadEnvFiles(process.env.NODE_ENV === 'production' ? 'production' : 'development');

// `npm run --silent admin -- <group> <action> [options] [--json]`
runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`admin: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  },
);
