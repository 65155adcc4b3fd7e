/**
 * How an error appears in the log: by name and code only (issue 15). An error's message and its
 * stack can quote values: a database driver's "Failed query: … params: …" carries the query's
 * parameters (an access code's hash, a room name), a parser's message quotes the input, and the
 * stack's first line is the message again. So neither is ever logged, for the error or its causes.
 */

/** What the log keeps of an error. */
export interface LoggedError {
  name: string;
  code?: string;
  cause?: LoggedError;
}

const SAFE_CODE = /^[A-Za-z0-9_.-]{1,64}$/;

/** `error` as name and code (and the same for its causes, three deep); nothing else. */
export function errorForLog(error: unknown, depth = 0): LoggedError {
  if (typeof error !== 'object' || error === null) return { name: typeof error };
  const name = error instanceof Error && SAFE_CODE.test(error.name) ? error.name : 'Error';
  const code = 'code' in error ? error.code : undefined;
  const logged: LoggedError = { name };
  if ((typeof code === 'string' && SAFE_CODE.test(code)) || typeof code === 'number')
    logged.code = String(code);
  if (depth < 3 && 'cause' in error && error.cause !== undefined)
    logged.cause = errorForLog(error.cause, depth + 1);
  return logged;
}

/**
 * pino `hooks.logMethod`: a call that logs an Error as its first argument (`log.error(err)`, as
 * some libraries do) would put the error's message in `msg`; it is logged as `{err}` with a fixed
 * message instead. Everything else passes through.
 */
export function logMethodWithoutErrorMessages(
  this: unknown,
  args: unknown[],
  method: (...args: unknown[]) => void,
): void {
  const [first, second] = args;
  if (first instanceof Error) {
    // `second` may be the error's own message (Fastify passes it): it is dropped too.
    method.call(this, { err: errorForLog(first) }, 'error');
    return;
  }
  if (typeof first === 'object' && first !== null && 'err' in first && first.err instanceof Error) {
    // `{err}` objects are serialised by name and code; a message taken from the error is dropped.
    const message = typeof second === 'string' && second === first.err.message ? 'error' : second;
    method.call(this, first, message, ...args.slice(2));
    return;
  }
  method.apply(this, args);
}
