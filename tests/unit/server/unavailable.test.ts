import { describe, expect, it } from 'vitest';
import { isDependencyUnavailable } from '../../../server/lib/unavailable.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isDependencyUnavailable', () => {
  it('recognises PostgreSQL and Redis outages in the shapes the drivers give them', () => {
    expect(
      isDependencyUnavailable(withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')),
    ).toBe(true);
    expect(
      isDependencyUnavailable(
        withCode('terminating connection due to administrator command', '57P01'),
      ),
    ).toBe(true);
    expect(isDependencyUnavailable(withCode('the database system is starting up', '57P03'))).toBe(
      true,
    );
    expect(isDependencyUnavailable(withCode('connection failure', '08006'))).toBe(true);
    expect(isDependencyUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDependencyUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(
      true,
    );
    expect(
      isDependencyUnavailable(
        new Error("Stream isn't writeable and enableOfflineQueue options is false"),
      ),
    ).toBe(true);
    const maxRetries = new Error('Reached the max retries per request limit');
    maxRetries.name = 'MaxRetriesPerRequestError';
    expect(isDependencyUnavailable(maxRetries)).toBe(true);
  });

  it('looks inside wrappers: a cause, or an AggregateError of several addresses', () => {
    const refused = withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED');
    expect(isDependencyUnavailable(new Error('Failed query', { cause: refused }))).toBe(true);
    expect(isDependencyUnavailable(new AggregateError([refused], ''))).toBe(true);
  });

  it('leaves bugs and refusals of a working server alone', () => {
    expect(isDependencyUnavailable(withCode('duplicate key value', '23505'))).toBe(false);
    expect(isDependencyUnavailable(withCode('syntax error', '42601'))).toBe(false);
    expect(isDependencyUnavailable(new TypeError('x is undefined'))).toBe(false);
    expect(isDependencyUnavailable('ECONNREFUSED')).toBe(false);
    expect(isDependencyUnavailable(null)).toBe(false);
  });
});
