/**
 * Errors are values with a code and an HTTP status. The error handler turns them into
 * `{error}` with their message; the hub turns them into `{type:"error", message}`.
 * A message is shown to users: it never holds secrets or echoes raw input.
 */
export class AppError extends Error {
  override readonly name = 'AppError';
  /**
   * An admin authentication failure: answered `{success: false, message, error}` (spec 001 §7
   * gives `{success, message}` for admin calls; `error` keeps the rule every client reads).
   */
  readonly isAdminAuth: boolean;
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    options?: { cause?: unknown; adminAuth?: boolean },
  ) {
    super(message, options);
    this.isAdminAuth = options?.adminAuth ?? false;
  }
}

/** True when `error` is an AppError. */
export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
