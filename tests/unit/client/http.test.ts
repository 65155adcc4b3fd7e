import { describe, expect, it } from 'vitest';
import { HttpError, throwIfNotOk } from '../../../client/lib/http.js';

describe('the client HTTP error rule (spec 000 §8)', () => {
  it('uses the status, a colon and the body text', async () => {
    const error = await throwIfNotOk(
      new Response('{"error":"Room not found"}', { status: 404, statusText: 'Not Found' }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).message).toBe('404: {"error":"Room not found"}');
    expect((error as HttpError).serverError).toBe('Room not found');
  });

  it('falls back to the status text when the body is empty', async () => {
    const error = await throwIfNotOk(
      new Response('', { status: 503, statusText: 'Service Unavailable' }),
    ).catch((e: unknown) => e);
    expect((error as HttpError).message).toBe('503: Service Unavailable');
    expect((error as HttpError).serverError).toBeNull();
  });

  it('passes ok answers through', async () => {
    await expect(throwIfNotOk(new Response('{}', { status: 200 }))).resolves.toBeUndefined();
  });
});
