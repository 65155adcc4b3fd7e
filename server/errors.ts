/**
 * Errors are values with a code and an HTTP status. The error handler turns them into
 * `{error}` with their message; the hub turns them into `{type:"error", message}`.
 * A message is shown to users: it never holds secrets or echoes raw input.
 */
export class AppError extends Error {
  override readonly name = 'AppError';
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** True when `error` is an AppError. */
export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
