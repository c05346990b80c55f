// Run before `npm run test:deploy` (its pretest): brings Debian's PgBouncer, the transaction-mode
// pooler the deployment tests put in front of their PostgreSQL, as Neon and Supabase
// put theirs. Where we are root with apt (this project's machines and CI) it is
// installed once; elsewhere the run stops and says how. Its service is not started:
// the tests run a PgBouncer of their own, on a port and configuration of their own.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

export const PGBOUNCER = '/usr/sbin/pgbouncer';

function install() {
  if (fs.existsSync(PGBOUNCER)) return;
  if (process.getuid?.() !== 0 || !fs.existsSync('/usr/bin/apt-get')) {
    console.error(`The deployment tests need PgBouncer at ${PGBOUNCER}: install it with \`sudo apt-get install pgbouncer\`.`);
    process.exit(1);
  }
  console.error("Installing Debian's PgBouncer (once) for the deployment tests.");
  // Another apt-get (Chromium's, which `npm test` starts in the background) may hold the lock for a while.
  const apt = (args) =>
    execFileSync('apt-get', ['-o', 'DPkg::Lock::Timeout=600', ...args], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  apt(['update']);
  apt(['install', '-y', '--no-install-recommends', 'pgbouncer']);
  if (!fs.existsSync(PGBOUNCER)) {
    console.error(`apt-get installed pgbouncer, but ${PGBOUNCER} is not there.`);
    process.exit(1);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) install();
