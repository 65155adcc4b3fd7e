/**
 * How the direct-messages screen reports a failure (spec 001 §8): a console line with the spec's
 * text and the HTTP status line only (never a message, a key or a body), and a toast.
 */
import { TEXT } from '../../../shared/protocol/errors.js';
import { HttpError } from '../../lib/http.js';
import { toast } from '../../ui/use-toast.js';

/** 'HTTP 404' or the error's class name: enough to debug, nothing secret. */
function describe(error: unknown): string {
  if (error instanceof HttpError) return `HTTP ${error.status}`;
  return error instanceof Error ? error.name : 'unknown error';
}

/** Logs `text` with a safe description of `error`. */
export function logDmError(text: string, error: unknown): void {
  // eslint-disable-next-line no-console -- spec 001 §8: these failures are logged; content and keys never are.
  console.error(`[dm] ${text} (${describe(error)})`);
}

/** Logs and toasts 'Error' with `description` (the spec's toast text). */
export function reportDmError(logText: string, error: unknown, description = logText): void {
  logDmError(logText, error);
  toast({ title: TEXT.errorTitle, description, variant: 'destructive' });
}
