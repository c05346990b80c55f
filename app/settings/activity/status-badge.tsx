import { Badge, type Tone } from '../../ui/feedback';

function toneOf(status: number): Tone {
  if (status >= 500) return 'danger';
  if (status >= 400) return 'warn';
  return 'ok';
}

/** An answer's status code, coloured by its class. */
export function StatusBadge({ status }: { status: number }) {
  return <Badge tone={toneOf(status)}>{status}</Badge>;
}
