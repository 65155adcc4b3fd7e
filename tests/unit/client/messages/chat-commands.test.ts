/** Chat commands (spec 000 §2 "Chat commands", §5, §6): handled locally, never sent. */
import { describe, expect, it } from 'vitest';
import { TEXT } from '../../../../shared/protocol/errors.js';
import { resolveChatCommand } from '../../../../client/features/messages/chat-commands.js';
import { SIMULATION_TEXT } from '../../../../client/features/messages/simulation.js';

const anonymous = { isKeyHolder: false, isAdmin: false };
const keyHolder = { isKeyHolder: true, isAdmin: false };
const admin = { isKeyHolder: true, isAdmin: true };

describe('resolveChatCommand', () => {
  it('treats ordinary text, and a slash not followed by a letter, as messages to send', () => {
    for (const text of ['hello', '/', '/5 minutes', '/ hello', ':-/']) {
      expect(resolveChatCommand(text, anonymous)).toBeNull();
    }
  });

  it('answers an unknown command here with a hint to /help, and sends nothing', () => {
    for (const text of ['/shrug', '/hlep', '/pnog now', '/HELPME']) {
      const command = resolveChatCommand(text, keyHolder);
      expect(command).toEqual({
        kind: 'local',
        text: `Unknown command ${text.split(' ')[0]}. Type /help for the commands you can use.`,
        level: 'warning',
      });
    }
  });

  it('sends //text as /text: the escape for a message that starts with a slash', () => {
    expect(resolveChatCommand('//shrug', anonymous)).toEqual({ kind: 'send', text: '/shrug' });
    expect(resolveChatCommand('///', anonymous)).toEqual({ kind: 'send', text: '//' });
  });

  it('/help lists only what this user may run', () => {
    const help = (context: Parameters<typeof resolveChatCommand>[1]) => {
      const command = resolveChatCommand('/help', context);
      if (command?.kind !== 'local') throw new Error('no help');
      expect(command.level).toBe('info');
      return command.text;
    };
    const visitor = help(anonymous);
    expect(visitor).toContain('/help');
    expect(visitor).toContain('/get-key');
    expect(visitor).not.toContain('/pong');
    expect(visitor).not.toContain('/admin');
    expect(visitor).not.toContain('/modhelp');

    const holder = help(keyHolder);
    expect(holder).toContain('/pong');
    expect(holder).toContain('/simulation');
    expect(holder).not.toContain('/admin');

    const administrator = help(admin);
    expect(administrator).toContain('/admin');
    expect(administrator).toContain('/pong');

    expect(help({ ...keyHolder, isModerator: true })).toContain('/modhelp');
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
