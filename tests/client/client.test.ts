import { describe } from 'vitest';
import { burstCase, clientCases } from './api.cases';
import { browserCases } from './browser.cases';
import { cliCases } from './cli.cases';
import { useClientServer } from './context';
import { packageCases } from './package.cases';

// The official client (client/), its command line and its packed tarball against one production
// server. The burst waits out the rate limit's window (a minute or two): it runs beside the other
// cases, which run one after another (describe.sequential), instead of after them.
const context = useClientServer();

describe('the client', { concurrent: true }, () => {
  burstCase(context);
  describe('the client, its command line and its package', () => {
    clientCases(context);
    cliCases(context);
    browserCases(context);
    packageCases(context);
  });
});
