/**
 * The one error type of the domain. Each kind has one HTTP status, mapped in
 * server/http/errors.ts; the admin CLI maps the client kinds to exit code 2.
 */
export type AppErrorKind =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'too_many_requests'
  | 'unavailable';

export class AppError extends Error {
  constructor(
    readonly kind: AppErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string) => new AppError('bad_request', message);
export const notFound = (message: string) => new AppError('not_found', message);
export const conflict = (message: string) => new AppError('conflict', message);
export const forbidden = (message: string) => new AppError('forbidden', message);

function prismaCode(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
}

/** Prisma's errors that callers turn into answers: a duplicate, a missing parent row, a missing record. */
export const isUniqueViolation = (error: unknown) => prismaCode(error) === 'P2002';
export const isForeignKeyViolation = (error: unknown) => prismaCode(error) === 'P2003';
export const isRecordMissing = (error: unknown) => prismaCode(error) === 'P2025';
