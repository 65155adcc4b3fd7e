/** The admin panel's console (spec 001 §2 "Console", §7): parsing lines and the frames they send. */
import { describe, expect, it } from 'vitest';
import { TEXT } from '../../../../shared/protocol/errors.js';
import { CLIENT_FRAME_SCHEMAS } from '../../../../shared/protocol/ws/index.js';
import {
  CONSOLE_COMMANDS,
  CONSOLE_TEXT_MAX_LENGTH,
  consoleCommandFrame,
  parseConsoleCommand,
  type ConsoleCommand,
} from '../../../../client/features/admin/console-commands.js';

const KEY_ID = `SCK${'a1'.repeat(16)}`;

function command(line: string): ConsoleCommand {
  const parsed = parseConsoleCommand(line);
  if (!parsed?.ok) throw new Error(`expected ${line} to parse`);
  return parsed.command;
}

describe('parseConsoleCommand', () => {
  it('ignores empty lines', () => {
    expect(parseConsoleCommand('')).toBeNull();
    expect(parseConsoleCommand('   ')).toBeNull();
    expect(parseConsoleCommand('/')).toBeNull();
  });

  it('keeps the whole rest of the line as the broadcast text, trimmed', () => {
    expect(command('broadcast   Maintenance at noon, be ready  ')).toEqual({
      name: 'broadcast',
      text: 'Maintenance at noon, be ready',
    });
    expect(command('system  Relay restarts in 5 minutes')).toEqual({
      name: 'system',
      text: 'Relay restarts in 5 minutes',
    });
    expect(command('security Rotate your keys')).toEqual({
      name: 'security',
      text: 'Rotate your keys',
    });
  });

  it('accepts a leading slash and any letter case for the command word', () => {
    expect(command('/USERS')).toEqual({ name: 'users' });
    expect(command('Broadcast Hello')).toEqual({ name: 'broadcast', text: 'Hello' });
  });

  it('asks for the text when a broadcast has none, and refuses text over the server limit', () => {
    expect(parseConsoleCommand('broadcast')).toEqual({
      ok: false,
      error: 'Usage: broadcast <text>',
    });
    expect(parseConsoleCommand('security   ')).toEqual({
      ok: false,
      error: 'Usage: security <text>',
    });
    const long = parseConsoleCommand(`system ${'x'.repeat(CONSOLE_TEXT_MAX_LENGTH + 1)}`);
    expect(long?.ok).toBe(false);
  });

  it('requires a shutdown reason with the spec text', () => {
    expect(parseConsoleCommand('shutdown')).toEqual({
      ok: false,
      error: TEXT.shutdownReasonRequired,
    });
    expect(command('shutdown Compromise suspected')).toEqual({
      name: 'shutdown',
      reason: 'Compromise suspected',
    });
  });

  it('takes a well-formed key id for revoke and refuses anything else', () => {
    expect(command(`revoke ${KEY_ID}`)).toEqual({ name: 'revoke', keyId: KEY_ID });
    for (const line of ['revoke', 'revoke SCK123', `revoke ${KEY_ID} extra`]) {
      expect(parseConsoleCommand(line)?.ok).toBe(false);
    }
  });

  it('refuses arguments to commands that take none', () => {
    expect(parseConsoleCommand('users now')).toEqual({ ok: false, error: 'Usage: users' });
    expect(parseConsoleCommand('restore please')?.ok).toBe(false);
  });

  it('names an unknown command without echoing the rest of the line', () => {
    const result = parseConsoleCommand('launch <script>alert(1)</script>');
    expect(result?.ok).toBe(false);
    if (result && !result.ok) {
      expect(result.error).toBe('Unknown command: launch. Type help for the list.');
      expect(result.error).not.toContain('script');
    }
    const longWord = parseConsoleCommand(`${'z'.repeat(40)} x`);
    if (longWord && !longWord.ok) expect(longWord.error).toContain(`${'z'.repeat(24)}…`);
  });

  it('lists every command the spec names in help', () => {
    expect(CONSOLE_COMMANDS.map((help) => help.name)).toEqual([
      'broadcast',
      'system',
      'security',
      'users',
      'shutdown',
      'restore',
      'keys',
      'revoke',
      'keygen',
      'tor',
      'audit',
      'help',
      'clear',
    ]);
  });

  it('parses keygen with the key form rules, and the Tor commands', () => {
    // Issue 21: key generation and Tor controls are console commands (spec 001 §6).
    expect(command('keygen carol')).toEqual({
      name: 'keygen',
      request: { username: 'carol', validityDays: 365, level: 'user' },
    });
    expect(command('/KEYGEN dave 0 ADMIN')).toEqual({
      name: 'keygen',
      request: { username: 'dave', validityDays: 0, level: 'admin' },
    });
    for (const bad of ['keygen', 'keygen erin -3', 'keygen erin 30 root', 'keygen a b c d']) {
      expect(parseConsoleCommand(bad)?.ok).toBe(false);
    }
    for (const action of [
      'status',
      'start',
      'stop',
      'restart',
      'logs',
      'connect',
      'disconnect',
      'test',
    ]) {
      expect(command(`tor ${action}`)).toEqual({ name: 'tor', action });
    }
    expect(parseConsoleCommand('tor')).toEqual({
      ok: false,
      error: 'Usage: tor <status|start|stop|restart|logs|connect|disconnect|test>',
    });
    expect(consoleCommandFrame(command('tor status'), 'token')).toBeNull();
  });
});

describe('consoleCommandFrame', () => {
  const token = 'admin-bearer-token';

  it('maps socket commands to the spec frames with the admin token, each valid by its schema', () => {
    const cases: [string, string][] = [
      ['broadcast Hello all', 'admin_broadcast'],
      ['system Relay restart', 'system_message'],
      ['security Rotate keys', 'security_broadcast'],
      ['users', 'admin_list_users'],
      ['shutdown Drill', 'emergency_shutdown'],
      ['restore', 'restore_service'],
    ];
    for (const [line, type] of cases) {
      const frame = consoleCommandFrame(command(line), token);
      expect(frame?.type).toBe(type);
      expect(frame).toMatchObject({ sessionToken: token });
      const schema = CLIENT_FRAME_SCHEMAS[type as keyof typeof CLIENT_FRAME_SCHEMAS];
      expect(schema.safeParse(frame).success).toBe(true);
    }
  });

  it('gives no frame for HTTP and local commands', () => {
    for (const line of ['keys', `revoke ${KEY_ID}`, 'audit', 'help', 'clear']) {
      expect(consoleCommandFrame(command(line), token)).toBeNull();
    }
  });
});
