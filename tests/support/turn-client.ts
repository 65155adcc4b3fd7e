/**
 * A minimal TURN client for tests: one Allocate over UDP with the long-term credential mechanism
 * (RFC 8489 §9.2, RFC 8656 §7) and CreatePermission (RFC 8656 §9), enough to learn whether a
 * TURN server accepts a username and password and which peers it relays to. Also starts
 * Debian's coturn (`turnserver`) on loopback with the project's configuration.
 *
 * STUN message (RFC 8489 §5):
 *   0        2        4                8                              20
 *   | type   | length | magic cookie   | transaction id (96 bits)     | attributes (TLV, padded to 4)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const MAGIC_COOKIE = 0x2112a442;
const ALLOCATE_REQUEST = 0x0003;
const ALLOCATE_SUCCESS = 0x0103;
const ALLOCATE_ERROR = 0x0113;
const CREATE_PERMISSION_REQUEST = 0x0008;
const CREATE_PERMISSION_SUCCESS = 0x0108;
const ATTR = {
  username: 0x0006,
  messageIntegrity: 0x0008,
  errorCode: 0x0009,
  realm: 0x0014,
  nonce: 0x0015,
  requestedTransport: 0x0019,
  xorRelayedAddress: 0x0016,
  xorPeerAddress: 0x0012,
} as const;
const UDP = 17;

interface Attribute {
  type: number;
  value: Buffer;
}

function encodeAttributes(attributes: Attribute[]): Buffer {
  return Buffer.concat(
    attributes.map(({ type, value }) => {
      const padded = Buffer.alloc(4 + Math.ceil(value.length / 4) * 4);
      padded.writeUInt16BE(type, 0);
      padded.writeUInt16BE(value.length, 2);
      value.copy(padded, 4);
      return padded;
    }),
  );
}

function header(type: number, length: number, transactionId: Buffer): Buffer {
  const buffer = Buffer.alloc(20);
  buffer.writeUInt16BE(type, 0);
  buffer.writeUInt16BE(length, 2);
  buffer.writeUInt32BE(MAGIC_COOKIE, 4);
  transactionId.copy(buffer, 8);
  return buffer;
}

interface LongTermAuth {
  username: string;
  password: string;
  realm: string;
  nonce: Buffer;
}

/** A request of `type`; with `auth`, signed with MESSAGE-INTEGRITY under the long-term key. */
function request(type: number, attributes: Attribute[], auth: LongTermAuth | null): Buffer {
  const transactionId = randomBytes(12);
  if (!auth) {
    const body = encodeAttributes(attributes);
    return Buffer.concat([header(type, body.length, transactionId), body]);
  }
  const body = encodeAttributes([
    ...attributes,
    { type: ATTR.username, value: Buffer.from(auth.username, 'utf8') },
    { type: ATTR.realm, value: Buffer.from(auth.realm, 'utf8') },
    { type: ATTR.nonce, value: auth.nonce },
  ]);
  // The length covers MESSAGE-INTEGRITY (4 + 20 bytes) while the HMAC is computed over the rest.
  const head = header(type, body.length + 24, transactionId);
  const key = createHash('md5').update(`${auth.username}:${auth.realm}:${auth.password}`).digest();
  const integrity = createHmac('sha1', key)
    .update(Buffer.concat([head, body]))
    .digest();
  return Buffer.concat([
    head,
    body,
    encodeAttributes([{ type: ATTR.messageIntegrity, value: integrity }]),
  ]);
}

/** REQUESTED-TRANSPORT: UDP. */
const udpTransport: Attribute = {
  type: ATTR.requestedTransport,
  value: Buffer.from([UDP, 0, 0, 0]),
};

/** XOR-PEER-ADDRESS of an IPv4 address, port 9 (RFC 8489 §14.2). */
function xorPeerAddress(ipv4: string): Attribute {
  const value = Buffer.alloc(8);
  value[1] = 0x01;
  value.writeUInt16BE(9 ^ (MAGIC_COOKIE >>> 16), 2);
  const address = ipv4.split('.').reduce((sum, part) => sum * 256 + Number(part), 0);
  value.writeUInt32BE((address ^ MAGIC_COOKIE) >>> 0, 4);
  return { type: ATTR.xorPeerAddress, value };
}

function parse(message: Buffer): { type: number; attributes: Map<number, Buffer> } {
  const type = message.readUInt16BE(0);
  const length = message.readUInt16BE(2);
  const attributes = new Map<number, Buffer>();
  let offset = 20;
  while (offset + 4 <= 20 + length) {
    const attributeType = message.readUInt16BE(offset);
    const attributeLength = message.readUInt16BE(offset + 2);
    attributes.set(attributeType, message.subarray(offset + 4, offset + 4 + attributeLength));
    offset += 4 + Math.ceil(attributeLength / 4) * 4;
  }
  return { type, attributes };
}

function errorCodeOf(attributes: Map<number, Buffer>): number | null {
  const value = attributes.get(ATTR.errorCode);
  if (!value) return null;
  return (value[2]! & 0x07) * 100 + value[3]!;
}

/** Sends `request` from `socket` and resolves with the first answer, resending on silence. */
function exchange(socket: Socket, host: string, port: number, request: Buffer): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    let tries = 0;
    let timer: NodeJS.Timeout | undefined;
    const onMessage = (message: Buffer) => {
      clearTimeout(timer);
      resolve(message);
    };
    // UDP may drop a datagram (or coturn may still be starting): resend a few times.
    const send = () => {
      tries += 1;
      if (tries > 5) {
        socket.off('message', onMessage);
        reject(new Error('TURN server did not answer'));
        return;
      }
      socket.send(request, port, host);
      timer = setTimeout(send, 1000);
    };
    socket.once('message', onMessage);
    send();
  });
}

export interface TurnOutcome {
  /** True when the server granted the request (an allocation with a relay address, a permission). */
  ok: boolean;
  /** The STUN error code of a refusal (401 bad or expired credentials, 403 forbidden peer). */
  errorCode: number | null;
}

/**
 * One client 5-tuple talking to a TURN server: coturn binds its nonce and the allocation to the
 * client's address and port, so every request of a test goes through the same socket.
 */
export class TurnSession {
  private readonly socket: Socket = createSocket('udp4');
  private auth: LongTermAuth | null = null;

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {}

  /**
   * Asks for an allocation with `username`/`password`: first without credentials (the server
   * answers 401 with its realm and a nonce), then signed.
   */
  async allocate(username: string, password: string): Promise<TurnOutcome> {
    const challenge = parse(
      await exchange(
        this.socket,
        this.host,
        this.port,
        request(ALLOCATE_REQUEST, [udpTransport], null),
      ),
    );
    const realm = challenge.attributes.get(ATTR.realm);
    const nonce = challenge.attributes.get(ATTR.nonce);
    if (challenge.type !== ALLOCATE_ERROR || !realm || !nonce) {
      throw new Error('TURN server did not challenge an unauthenticated Allocate');
    }
    this.auth = { username, password, realm: realm.toString('utf8'), nonce };
    const answer = parse(
      await exchange(
        this.socket,
        this.host,
        this.port,
        request(ALLOCATE_REQUEST, [udpTransport], this.auth),
      ),
    );
    return {
      ok: answer.type === ALLOCATE_SUCCESS && answer.attributes.has(ATTR.xorRelayedAddress),
      errorCode: errorCodeOf(answer.attributes),
    };
  }

  /** Asks the allocation's relay for permission to exchange data with `peer` (IPv4). */
  async createPermission(peer: string): Promise<TurnOutcome> {
    if (!this.auth) throw new Error('allocate first');
    const answer = parse(
      await exchange(
        this.socket,
        this.host,
        this.port,
        request(CREATE_PERMISSION_REQUEST, [xorPeerAddress(peer)], this.auth),
      ),
    );
    return {
      ok: answer.type === CREATE_PERMISSION_SUCCESS,
      errorCode: errorCodeOf(answer.attributes),
    };
  }

  close(): void {
    this.socket.close();
  }
}

/** One Allocate with these credentials on a fresh session. */
export async function tryAllocate(
  host: string,
  port: number,
  username: string,
  password: string,
): Promise<TurnOutcome> {
  const session = new TurnSession(host, port);
  try {
    return await session.allocate(username, password);
  } finally {
    session.close();
  }
}

export interface Coturn {
  port: number;
  stop(): Promise<void>;
}

/** The coturn configuration the project ships. */
export const DEPLOY_COTURN_CONFIG = path.join(
  import.meta.dirname,
  '../../deploy/coturn/turnserver.conf',
);

/**
 * Starts `turnserver` with the shipped `deploy/coturn/turnserver.conf`, changed only where a test
 * must: the secret and realm, loopback instead of public addresses and ports, no TLS (no
 * certificate here), no privilege drop, its pid file and log in a temporary folder. Resolves once
 * it listens.
 */
export async function startCoturn(secret: string, realm: string): Promise<Coturn> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const minPort = 45_000 + Math.floor(Math.random() * 10_000);
  const directory = mkdtempSync(path.join(tmpdir(), 'coturn-'));
  const replaced: Record<string, string | null> = {
    'static-auth-secret': `static-auth-secret=${secret}`,
    realm: `realm=${realm}`,
    'listening-port': `listening-port=${port}`,
    'min-port': `min-port=${minPort}`,
    'max-port': `max-port=${minPort + 50}`,
    pidfile: `pidfile=${path.join(directory, 'turnserver.pid')}`,
    syslog: 'log-file=stdout',
    'tls-listening-port': null,
    cert: null,
    pkey: null,
    'proc-user': null,
    'proc-group': null,
  };
  const config = readFileSync(DEPLOY_COTURN_CONFIG, 'utf8')
    .split('\n')
    .flatMap((line) => {
      const name = /^([a-z0-9-_]+)/.exec(line)?.[1];
      if (name === undefined || !(name in replaced)) return [line];
      const replacement = replaced[name];
      return replacement === null || replacement === undefined ? [] : [replacement];
    })
    .join('\n');
  const configFile = path.join(directory, 'turnserver.conf');
  writeFileSync(configFile, config, { mode: 0o600 });
  const child: ChildProcess = spawn(
    'turnserver',
    [
      '-c',
      configFile,
      '--listening-ip=127.0.0.1',
      '--relay-ip=127.0.0.1',
      '--no-tls',
      '--no-dtls',
      `--userdb=${path.join(directory, 'turndb')}`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`turnserver did not start: ${output}`)),
      15_000,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Total General servers')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`turnserver exited with ${code}: ${output}`));
    });
  });
  return {
    port,
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
