/** Chat commands (spec 000 §2 "Chat commands", §5, §6): handled locally, never sent. */
import { describe, expect, it } from 'vitest';
import { TEXT } from '../../../../shared/protocol/errors.js';
import { resolveChatCommand } from '../../../../client/features/messages/chat-commands.js';
import { SIMULATION_TEXT } from '../../../../client/features/messages/simulation.js';

const anonymous = { isKeyHolder: false, isAdmin: false };
const keyHolder = { isKeyHolder: true, isAdmin: false };
const admin = { isKeyHolder: true, isAdmin: true };

describe('resolveChatCommand', () => {
  it('treats ordinary text and unknown commands as messages to send', () => {
    expect(resolveChatCommand('hello', anonymous)).toBeNull();
    expect(resolveChatCommand('/shrug', anonymous)).toBeNull();
  });

  it('shows theme debug information for /debugtheme', () => {
    expect(resolveChatCommand('/debugtheme', anonymous)).toEqual({ kind: 'debug-theme' });
  });

  it('opens Pong for key holders and refuses anonymous visitors with the spec text', () => {
    expect(resolveChatCommand('/pong', keyHolder)).toEqual({ kind: 'navigate', to: '/pong' });
    expect(resolveChatCommand('/pong', anonymous)).toEqual({
      kind: 'local',
      text: TEXT.pongRequiresKey,
      level: 'warning',
    });
  });

  it('runs the /simulation drill for key holders only', () => {
    expect(resolveChatCommand('/simulation run', keyHolder)).toEqual({ kind: 'simulation' });
    expect(resolveChatCommand('/simulation', anonymous)).toEqual({
      kind: 'local',
      text: SIMULATION_TEXT.refused,
      level: 'warning',
    });
  });

  it('lets only admins through /admin', () => {
    expect(resolveChatCommand('/admin', admin)).toEqual({ kind: 'admin' });
    for (const context of [anonymous, keyHolder]) {
      expect(resolveChatCommand('/admin', context)).toEqual({
        kind: 'local',
        text: 'Access denied, admin privileges required',
        level: 'warning',
      });
    }
  });

  it('sends everyone to /get-key, and reads commands case-insensitively with arguments', () => {
    expect(resolveChatCommand('/get-key', anonymous)).toEqual({ kind: 'navigate', to: '/get-key' });
    expect(resolveChatCommand('/PONG now', keyHolder)).toEqual({ kind: 'navigate', to: '/pong' });
  });
});
