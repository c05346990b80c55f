import { env } from '@/server/env';
import { Callout } from '../ui/feedback';

/** Whole days this server keeps its request log: 0 when it keeps none. */
export function requestLogDays(): number {
  return env().requestLog.retentionDays;
}

/** Said on the Requests and Usage pages of a server that records no request. */
export function RequestLogOff() {
  return (
    <Callout tone="info" role="status">
      This server keeps no request log (<code>REQUEST_LOG_RETENTION_DAYS=0</code>): no request is recorded and no usage is counted.
    </Callout>
  );
}
