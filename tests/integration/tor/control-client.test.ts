/**
 * The control-port client against a local fake control port (tests/fixtures/fake-tor): cookie
 * authentication, GETINFO, bootstrap events on connect and disconnect, and hostile or malformed
 * replies, which must fail the command and close the connection without crashing anything.
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ControlProtocolError,
  TorCommandError,
  TorControlClient,
  type ControlEvent,
} from '../../../server/features/tor/index.js';
// @ts-expect-error -- plain JavaScript fixture without type declarations
import { startFakeControlPort } from '../../fixtures/fake-tor/control-server.mjs';

interface FakeControlPort {
  port: number;
  state: { networkEnabled: boolean; signals: string[]; commands: string[] };
  close(): Promise<void>;
}
const start = startFakeControlPort as (
  options: Record<string, unknown>,
) => Promise<FakeControlPort>;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function fake(options: Record<string, unknown> = {}) {
  const cookie = randomBytes(32);
  const control = await start({ cookie, ...options });
  cleanups.push(() => control.close());
  const client = await TorControlClient.connect({ host: '127.0.0.1', port: control.port });
  cleanups.push(() => client.close());
  return { control, client, cookie };
}

/** A raw TCP server that answers every command line with `answer(line)`. */
async function hostile(answer: (line: string, socket: net.Socket) => void, greeting = '') {
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    if (greeting) socket.write(greeting);
    let buffer = '';
    socket.on('data', (chunk) => {
      buffer += chunk.toString('latin1');
      let end;
      while ((end = buffer.indexOf('\r\n')) !== -1) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        answer(line, socket);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen({ host: '127.0.0.1', port: 0 }, resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const port = (server.address() as net.AddressInfo).port;
  const client = await TorControlClient.connect({ host: '127.0.0.1', port });
  cleanups.push(() => client.close());
  return client;
}

describe('tor control client: authentication', () => {
  it('authenticates with SAFECOOKIE when offered, without sending the cookie', async () => {
    const { control, client, cookie } = await fake();
    await client.authenticate(cookie);
    expect(control.state.commands).toContain('PROTOCOLINFO 1');
    expect(
      control.state.commands.some((line) => line.startsWith('AUTHCHALLENGE SAFECOOKIE ')),
    ).toBe(true);
    expect(control.state.commands.join('\n')).not.toContain(cookie.toString('hex'));
    const info = await client.getInfo(['version']);
    expect(info.version).toBe('0.4.9.11 (fake)');
  });

  it('falls back to COOKIE authentication', async () => {
    const { client, cookie } = await fake({ methods: 'COOKIE' });
    await client.authenticate(cookie);
    expect((await client.getInfo(['traffic/read']))['traffic/read']).toBe('0');
  });

  it('refuses a control port that cannot prove it knows the cookie', async () => {
    const { client, cookie } = await fake({ wrongServerHash: true });
    await expect(client.authenticate(cookie)).rejects.toThrow(ControlProtocolError);
  });

  it('reports a wrong cookie as tor’s refusal', async () => {
    const { client } = await fake({ methods: 'COOKIE' });
    await expect(client.authenticate(randomBytes(32))).rejects.toThrow(TorCommandError);
  });

  it('refuses a port that offers no cookie authentication', async () => {
    const { client, cookie } = await fake({ methods: 'NULL' });
    await expect(client.authenticate(cookie)).rejects.toThrow('offers no cookie authentication');
  });
});

describe('tor control client: status, connect and disconnect', () => {
  it('reads circuits and traffic, follows bootstrap events to 100 on connect, and hears the disconnect', async () => {
    const { control, client, cookie } = await fake();
    await client.authenticate(cookie);
    const events: ControlEvent[] = [];
    client.onEvent((event) => events.push(event));
    await client.subscribeStatus();

    await client.setConf({ DisableNetwork: '0' });
    await client.signal('NEWNYM');
    await expect
      .poll(() => events.some((event) => event.kind === 'circuit-established'))
      .toBe(true);
    const progress = events.flatMap((event) =>
      event.kind === 'bootstrap' ? [event.progress] : [],
    );
    expect(progress.at(-1)).toBe(100);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
    expect(control.state.networkEnabled).toBe(true);
    expect(control.state.signals).toEqual(['NEWNYM']);

    const info = await client.getInfo([
      'status/circuit-established',
      'circuit-status',
      'traffic/read',
    ]);
    expect(info['status/circuit-established']).toBe('1');
    expect(
      info['circuit-status'].split('\n').filter((line) => line.includes(' BUILT ')),
    ).toHaveLength(2);
    expect(Number(info['traffic/read'])).toBeGreaterThan(0);

    await client.setConf({ DisableNetwork: '1' });
    await expect.poll(() => events.at(-1)?.kind).toBe('circuit-not-established');
    expect(control.state.networkEnabled).toBe(false);
    expect(
      (await client.getInfo(['status/circuit-established']))['status/circuit-established'],
    ).toBe('0');
  });

  it('refuses to send a SETCONF value outside its closed set', async () => {
    const { control, client, cookie } = await fake();
    await client.authenticate(cookie);
    await expect(client.setConf({ DisableNetwork: '0\r\nSIGNAL SHUTDOWN' })).rejects.toThrow(
      ControlProtocolError,
    );
    expect(control.state.commands.some((line) => line.includes('SHUTDOWN'))).toBe(false);
  });
});

describe('tor control client: malformed and hostile replies', () => {
  const cases: [string, (line: string, socket: net.Socket) => void][] = [
    ['a line that is not a reply', (_line, socket) => socket.write('hello there\r\n')],
    ['a line longer than 16 KiB', (_line, socket) => socket.write(`250-${'a'.repeat(20_000)}`)],
    [
      'non-ASCII bytes',
      (_line, socket) => socket.write(Buffer.from('250 \u00ff\u0000OK\r\n', 'latin1')),
    ],
    [
      'a reply larger than 1 MiB',
      (_line, socket) => {
        const chunk = `250-${'x'.repeat(8000)}\r\n`;
        for (let index = 0; index < 140; index += 1) socket.write(chunk);
      },
    ],
    [
      'a status code that changes inside a reply',
      (_line, socket) => socket.write('250-a=1\r\n550 OK\r\n'),
    ],
    [
      'a GETINFO answer for a key not asked',
      (_line, socket) => socket.write('250-secret=1\r\n250 OK\r\n'),
    ],
    ['a GETINFO answer missing the key', (_line, socket) => socket.write('250 OK\r\n')],
  ];
  for (const [name, answer] of cases) {
    it(`fails the command on ${name} and closes, without crashing`, async () => {
      const client = await hostile(answer);
      await expect(client.getInfo(['version'])).rejects.toThrow(ControlProtocolError);
      if (name.startsWith('a GETINFO')) return; // a well-formed reply: the connection stays usable
      expect(client.isClosed).toBe(true);
      await expect(client.getInfo(['version'])).rejects.toThrow(ControlProtocolError);
    });
  }

  it('closes on a reply nobody asked for, failing the next command', async () => {
    // Unsolicited: written as soon as the connection opens, before any command.
    const client = await hostile(() => undefined, '250 OK\r\n');
    await expect.poll(() => client.isClosed).toBe(true);
    await expect(client.signal('NEWNYM')).rejects.toThrow(ControlProtocolError);
  });

  it('ignores events it does not know and keeps working', async () => {
    const client = await hostile((line, socket) => {
      if (line.startsWith('GETINFO')) {
        socket.write(
          '650 STATUS_GENERAL NOTICE SOMETHING\r\n650 STATUS_CLIENT NOTICE BOOTSTRAP PROGRESS=999\r\n',
        );
        socket.write('250-version=1\r\n250 OK\r\n');
      }
    });
    const events: ControlEvent[] = [];
    client.onEvent((event) => events.push(event));
    expect((await client.getInfo(['version'])).version).toBe('1');
    expect(events).toEqual([]);
  });
});
