/**
 * A minimal TURN client for tests: one Allocate over UDP with the long-term credential mechanism
 * (RFC 8489 §9.2, RFC 8656 §7), enough to learn whether a TURN server accepts a username and
 * password. Also starts Debian's coturn (`turnserver`) on loopback.
 *
 * STUN message (RFC 8489 §5):
 *   0        2        4                8                              20
 *   | type   | length | magic cookie   | transaction id (96 bits)     | attributes (TLV, padded to 4)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const MAGIC_COOKIE = 0x2112a442;
const ALLOCATE_REQUEST = 0x0003;
const ALLOCATE_SUCCESS = 0x0103;
const ALLOCATE_ERROR = 0x0113;
const ATTR = {
  username: 0x0006,
  messageIntegrity: 0x0008,
  errorCode: 0x0009,
  realm: 0x0014,
  nonce: 0x0015,
  requestedTransport: 0x0019,
  xorRelayedAddress: 0x0016,
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

/** An Allocate request; with `auth`, signed with MESSAGE-INTEGRITY under the long-term key. */
function allocateRequest(
  auth: { username: string; password: string; realm: string; nonce: Buffer } | null,
): Buffer {
  const transactionId = randomBytes(12);
  const transport = Buffer.from([UDP, 0, 0, 0]);
  const attributes: Attribute[] = [{ type: ATTR.requestedTransport, value: transport }];
  if (!auth) {
    const body = encodeAttributes(attributes);
    return Buffer.concat([header(ALLOCATE_REQUEST, body.length, transactionId), body]);
  }
  attributes.push(
    { type: ATTR.username, value: Buffer.from(auth.username, 'utf8') },
    { type: ATTR.realm, value: Buffer.from(auth.realm, 'utf8') },
    { type: ATTR.nonce, value: auth.nonce },
  );
  const body = encodeAttributes(attributes);
  // The length covers MESSAGE-INTEGRITY (4 + 20 bytes) while the HMAC is computed over the rest.
  const head = header(ALLOCATE_REQUEST, body.length + 24, transactionId);
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

export interface AllocateOutcome {
  /** True when the server allocated a relay address. */
  allocated: boolean;
  /** The STUN error code of a refusal (401 for bad or expired credentials), else null. */
  errorCode: number | null;
}

/**
 * Asks the TURN server at `host:port` for an allocation with `username`/`password`: first
 * without credentials (the server answers 401 with its realm and a nonce), then signed.
 */
export async function tryAllocate(
  host: string,
  port: number,
  username: string,
  password: string,
): Promise<AllocateOutcome> {
  // One socket for both requests: coturn binds its nonce to the client's address and port.
  const socket = createSocket('udp4');
  try {
    const challenge = parse(await exchange(socket, host, port, allocateRequest(null)));
    const realm = challenge.attributes.get(ATTR.realm);
    const nonce = challenge.attributes.get(ATTR.nonce);
    if (challenge.type !== ALLOCATE_ERROR || !realm || !nonce) {
      throw new Error('TURN server did not challenge an unauthenticated Allocate');
    }
    const signed = allocateRequest({ username, password, realm: realm.toString('utf8'), nonce });
    const answer = parse(await exchange(socket, host, port, signed));
    return {
      allocated: answer.type === ALLOCATE_SUCCESS && answer.attributes.has(ATTR.xorRelayedAddress),
      errorCode: errorCodeOf(answer.attributes),
    };
  } finally {
    socket.close();
  }
}

export interface Coturn {
  port: number;
  stop(): Promise<void>;
}

/**
 * Starts `turnserver` on 127.0.0.1 with coturn's shared-secret authentication, relaying only on
 * loopback, with no CLI, TLS or database; resolves once it listens.
 */
export async function startCoturn(secret: string, realm: string): Promise<Coturn> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const minPort = 45_000 + Math.floor(Math.random() * 10_000);
  const directory = mkdtempSync(path.join(tmpdir(), 'coturn-'));
  const child: ChildProcess = spawn(
    'turnserver',
    [
      '-n',
      '--listening-ip=127.0.0.1',
      `--listening-port=${port}`,
      '--relay-ip=127.0.0.1',
      `--min-port=${minPort}`,
      `--max-port=${minPort + 50}`,
      '--use-auth-secret',
      `--static-auth-secret=${secret}`,
      `--realm=${realm}`,
      '--no-cli',
      '--no-tls',
      '--no-dtls',
      '--no-tcp-relay',
      '--log-file=stdout',
      '--simple-log',
      `--pidfile=${path.join(directory, 'turnserver.pid')}`,
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
