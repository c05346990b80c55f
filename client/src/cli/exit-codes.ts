import {
  AuthenticationError,
  ConflictError,
  ConnectionError,
  IdempotencyError,
  NotFoundError,
  PermissionError,
  PreconditionFailedError,
  RateLimitedError,
  ServerError,
  TooLargeError,
  ValidationError,
} from '../errors.js';

/** The exit code of each kind of failure, so that a script can tell them apart (the README lists them). */
export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  authentication: 3,
  permission: 4,
  notFound: 5,
  conflict: 6,
  invalid: 7,
  rateLimited: 8,
  server: 9,
  connection: 10,
} as const;

/** A failure of the command line itself (bad arguments, a file it cannot read), with the exit code it ends with. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.usage,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

const KINDS: [abstract new (...args: never[]) => Error, number][] = [
  [AuthenticationError, EXIT.authentication],
  [PermissionError, EXIT.permission],
  [NotFoundError, EXIT.notFound],
  [ConflictError, EXIT.conflict],
  [PreconditionFailedError, EXIT.conflict],
  [IdempotencyError, EXIT.conflict],
  [ValidationError, EXIT.invalid],
  [TooLargeError, EXIT.invalid],
  [RateLimitedError, EXIT.rateLimited],
  [ServerError, EXIT.server],
  [ConnectionError, EXIT.connection],
];

export function exitCodeOf(error: unknown): number {
  if (error instanceof CliError) return error.exitCode;
  return KINDS.find(([Kind]) => error instanceof Kind)?.[1] ?? EXIT.failure;
}
