/** Errors reach the log by name and code only (issue 15, item 7). */
import { describe, expect, it } from 'vitest';
import { errorForLog, logMethodWithoutErrorMessages } from '../../../server/lib/log-error.js';

class QueryError extends Error {
  override readonly name = 'DrizzleQueryError';
}

describe('errorForLog', () => {
  it('keeps the name and code of an error and its causes, never messages or stacks', () => {
    const cause = Object.assign(new Error('relation "rooms" does not exist'), { code: '42P01' });
    const error = new QueryError('Failed query: insert ...\nparams: scrypt$secret', { cause });
    const logged = errorForLog(error);
    expect(logged).toEqual({ name: 'DrizzleQueryError', cause: { name: 'Error', code: '42P01' } });
    expect(JSON.stringify(logged)).not.toMatch(/secret|Failed|rooms/);
  });

  it('drops codes and names that could carry values', () => {
    const error = Object.assign(new Error('x'), { code: 'not a code: secret value' });
    error.name = 'Name with secret value';
    expect(errorForLog(error)).toEqual({ name: 'Error' });
    expect(errorForLog('a thrown string')).toEqual({ name: 'string' });
  });

  it('logs an Error passed as the first argument without its message', () => {
    const calls: unknown[][] = [];
    const method = (...args: unknown[]) => void calls.push(args);
    logMethodWithoutErrorMessages([new Error('params: secret')], method);
    const error = new Error('params: secret');
    logMethodWithoutErrorMessages([{ err: error }, error.message], method);
    logMethodWithoutErrorMessages([{ task: 'x' }, 'housekeeping failed'], method);
    expect(JSON.stringify(calls)).not.toContain('secret');
    expect(calls[2]).toEqual([{ task: 'x' }, 'housekeeping failed']);
  });
});
