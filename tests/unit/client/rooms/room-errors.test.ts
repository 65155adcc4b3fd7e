/**
 * The answers to frames a removal overtook are not shown over the removal's notice; every other
 * error is shown as ever.
 */
import { describe, expect, it } from 'vitest';
import { isEchoOfRemoval } from '../../../../client/features/rooms/room-errors.js';

describe('isEchoOfRemoval', () => {
  it('takes the key agreement and typing the removal overtook for its echo', () => {
    // The order a kicked browser meets: removed_from_room, then these answers.
    for (const frameType of ['key_announce', 'sender_key', 'typing_start', 'typing_stop'])
      expect(isEchoOfRemoval(frameType, 'removed')).toBe(true);
    expect(isEchoOfRemoval('sender_key', 'destroyed')).toBe(true);
  });

  it('shows every error while the tab is in its room or was not put out by it', () => {
    expect(isEchoOfRemoval('sender_key', null)).toBe(false);
    for (const hold of ['closed', 'shutdown', 'revoked', 'banned'] as const)
      expect(isEchoOfRemoval('sender_key', hold)).toBe(false);
  });

  it('shows a refused join (a new try after RECONNECT) and an error that names no frame', () => {
    expect(isEchoOfRemoval('join_room', 'removed')).toBe(false);
    expect(isEchoOfRemoval(undefined, 'removed')).toBe(false);
  });
});
