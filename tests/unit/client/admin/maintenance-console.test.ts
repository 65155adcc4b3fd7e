/**
 * The maintenance page's console commands (spec 001 §2, §4, §7): authenticate with the lockout,
 * restoreService over the socket with the admin session token, checkStatus, help. Nothing
 * printed may contain the password or a token.
 */
import { describe, expect, it } from 'vitest';
import { TEXT } from '../../../../shared/protocol/errors.js';
import { type ServiceStatus } from '../../../../shared/protocol/http/admin.js';
import { ADMIN_TEXT } from '../../../../server/features/admin/credentials.js';
import { AdminApiError, type AdminSessionGrant } from '../../../../client/lib/admin/admin-api.js';
import { type OnFrame } from '../../../../client/lib/admin/admin-socket.js';
import { createMaintenanceConsole } from '../../../../client/features/admin/maintenance-console.js';

const PASSWORD = 'correct horse battery staple';
const TOKEN = 'admin-session-token-secret';

function setup(
  options: { answers?: (AdminSessionGrant | AdminApiError)[]; socketOpen?: boolean } = {},
) {
  let clock = 1_000_000;
  const printed: string[] = [];
  const sent: string[] = [];
  const listeners = new Map<string, ((frame: { message: string }) => void)[]>();
  const answers = [...(options.answers ?? [])];
  let session: AdminSessionGrant | null = null;
  let authCalls = 0;
  // A fake socket: frames are emitted by the test with only the `message` the console reads.
  const onFrame = ((type: string, listener: (frame: { message: string }) => void) => {
    listeners.set(type, [...(listeners.get(type) ?? []), listener]);
    return () =>
      listeners.set(
        type,
        (listeners.get(type) ?? []).filter((item) => item !== listener),
      );
  }) as unknown as OnFrame;
  const status: ServiceStatus = {
    status: 'emergency',
    reason: 'Compromise suspected',
    since: '2025-01-01T00:00:00.000Z',
    connections: 2,
  };
  const commands = createMaintenanceConsole({
    authenticate: async () => {
      authCalls += 1;
      const answer = answers.shift();
      if (!answer || answer instanceof AdminApiError) throw answer ?? new Error('no answer');
      return answer;
    },
    getSession: () => session,
    setSession: (grant) => {
      session = grant;
    },
    fetchStatus: async () => status,
    sendRestore: (token) => {
      sent.push(token);
      return options.socketOpen ?? true;
    },
    onFrame,
    print: (line) => printed.push(line),
    now: () => clock,
  });
  return {
    console: commands,
    printed,
    sent,
    emit: (type: string, message: string) => {
      for (const listener of listeners.get(type) ?? []) listener({ message });
    },
    advance: (ms: number) => {
      clock += ms;
    },
    authCalls: () => authCalls,
    session: () => session,
    clock: () => clock,
  };
}

describe('maintenance console', () => {
  it('asks for a password, authenticates, keeps the session and never prints secrets', async () => {
    const grant = { sessionToken: TOKEN, expiresAt: 1_000_000 + 600_000 };
    const t = setup({ answers: [grant] });
    await t.console.authenticate('');
    expect(t.printed.at(-1)).toContain(TEXT.adminPasswordRequired);
    expect(t.authCalls()).toBe(0);

    await t.console.authenticate(PASSWORD);
    expect(t.session()).toEqual(grant);
    expect(t.printed.at(-1)).toMatch(/Admin authentication successful/);
    expect(t.printed.join('\n')).not.toContain(PASSWORD);
    expect(t.printed.join('\n')).not.toContain(TOKEN);
  });

  it("prints the server's refusal and, on a lockout, answers locally until it ends", async () => {
    const t = setup({
      answers: [
        new AdminApiError(ADMIN_TEXT.invalidPassword, 401),
        new AdminApiError(ADMIN_TEXT.locked(300), 429),
        { sessionToken: TOKEN, expiresAt: Number.MAX_SAFE_INTEGER },
      ],
    });
    await t.console.authenticate('wrong');
    expect(t.printed.at(-1)).toBe(`[ADMIN] Authentication failed: ${ADMIN_TEXT.invalidPassword}`);
    await t.console.authenticate('wrong again');
    expect(t.printed).toContain(`[ADMIN] Authentication failed: ${ADMIN_TEXT.locked(300)}`);
    expect(t.printed.at(-1)).toContain('5m 00s');

    t.advance(60_000);
    await t.console.authenticate(PASSWORD);
    expect(t.authCalls()).toBe(2);
    expect(t.printed.at(-1)).toContain('4m 00s remaining');

    t.advance(240_000);
    await t.console.authenticate(PASSWORD);
    expect(t.authCalls()).toBe(3);
    expect(t.session()?.sessionToken).toBe(TOKEN);
  });

  it('restores only with a session, sends its token, and reports the relay answer', async () => {
    const t = setup({ answers: [{ sessionToken: TOKEN, expiresAt: Number.MAX_SAFE_INTEGER }] });
    t.console.restoreService();
    expect(t.sent).toEqual([]);
    expect(t.printed.at(-1)).toMatch(/Not authenticated/);

    await t.console.authenticate(PASSWORD);
    t.console.restoreService();
    expect(t.sent).toEqual([TOKEN]);
    t.emit('admin_error', 'Access denied, admin privileges required');
    expect(t.printed.at(-1)).toBe(
      '[ADMIN] Restore failed: Access denied, admin privileges required',
    );

    t.console.restoreService();
    t.emit('service_restored', 'Service restored. Secure channels are open again.');
    expect(t.printed.at(-1)).toContain(TEXT.serviceRestored);
    expect(t.printed.join('\n')).not.toContain(TOKEN);
  });

  it('says when the socket is not open yet', async () => {
    const t = setup({
      answers: [{ sessionToken: TOKEN, expiresAt: Number.MAX_SAFE_INTEGER }],
      socketOpen: false,
    });
    await t.console.authenticate(PASSWORD);
    t.console.restoreService();
    expect(t.printed.at(-1)).toMatch(/not open yet/);
  });

  it('prints the status, the session state and the help', async () => {
    const t = setup();
    await t.console.checkStatus();
    expect(t.printed).toEqual([
      '[STATUS] Service: EMERGENCY',
      '[STATUS] Reason: Compromise suspected',
      '[STATUS] Since: 2025-01-01T00:00:00.000Z',
      '[STATUS] Open connections: 2',
      '[STATUS] Admin session: not authenticated',
    ]);
    t.console.help();
    expect(t.printed.join('\n')).toMatch(
      /authenticate\('password'\)[\s\S]*restoreService\(\)[\s\S]*checkStatus\(\)[\s\S]*help\(\)/,
    );
  });

  it('stops listening to the socket when disposed', async () => {
    const t = setup({ answers: [{ sessionToken: TOKEN, expiresAt: Number.MAX_SAFE_INTEGER }] });
    await t.console.authenticate(PASSWORD);
    t.console.restoreService();
    t.console.dispose();
    const before = t.printed.length;
    t.emit('service_restored', 'back');
    expect(t.printed.length).toBe(before);
  });
});
