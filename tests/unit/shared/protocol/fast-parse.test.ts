/**
 * The hand-written checks of the hot client frames (fast-parse.ts) against their zod schemas, on
 * generated frames, valid and invalid: a check accepts only what the schema accepts, with the same
 * parsed frame, and leaves everything else to the schema (null).
 */
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../server/features/pong/random.js';
import {
  FAST_CLIENT_FRAME_PARSERS,
  fastParseClientFrame,
} from '../../../../shared/protocol/ws/fast-parse.js';
import {
  CLIENT_FRAME_SCHEMAS,
  isClientFrameType,
  type ClientFrameType,
} from '../../../../shared/protocol/ws/index.js';

const random = seededRandom(22);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

/** Characters around the text rule's edges: allowed, refused, whitespace that trim removes. */
const CHARACTERS = [
  'a',
  'Z',
  '7',
  '_',
  '-',
  ' ',
  '\u00e9',
  '\u4e2d',
  '\ud83d\ude00',
  '\t',
  '\n',
  '\u0000',
  '\u001f',
  '\u007f',
  '\u0085',
  '\u00a0',
  '\u200e',
  '\u202e',
  '\u2066',
  '\u2028',
  '\u3000',
  '\ufeff',
];
const LENGTHS = [0, 1, 2, 12, 63, 64, 65, 79, 80, 81, 199, 200, 201];

/** A string of one of the boundary lengths, mostly plain, sometimes with odd characters. */
function text(): string {
  const length = pick(LENGTHS);
  const odd = random() < 0.3;
  let out = '';
  while (out.length < length) out += odd && random() < 0.1 ? pick(CHARACTERS) : 'x';
  if (random() < 0.15) out = ` ${out}`;
  if (random() < 0.15) out = `${out}\u00a0 `;
  return out;
}

/** Any JSON value, biased towards strings. */
function value(): unknown {
  return pick<() => unknown>([
    text,
    text,
    text,
    () => null,
    () => 42,
    () => true,
    () => [text()],
    () => ({ nested: text() }),
  ])();
}

/** A frame of `type` built from its keys, each sometimes left out, given a wrong value or kept. */
function frame(type: string, keys: Record<string, () => unknown>): string {
  const out: Record<string, unknown> = {};
  out.type = random() < 0.95 ? type : pick(['join_room', 'typing_start', 'x', 7]);
  for (const [key, good] of Object.entries(keys)) {
    const roll = random();
    if (roll < 0.15) continue;
    out[key] = roll < 0.3 ? value() : good();
  }
  if (random() < 0.05) out[pick(['extra', 'constructor', 'toString'])] = text();
  let json = JSON.stringify(out);
  // An own `__proto__` key, as JSON.parse makes it.
  if (random() < 0.03) json = `${json.slice(0, -1)},"__proto__":{"roomId":"x"}}`;
  return json;
}

/** A key id, sometimes one character off (length, case, prefix, a non-hex digit). */
function keyId(): string {
  const good = `SCK${'0123456789abcdef'.repeat(2)}`;
  if (random() < 0.75) return good;
  return pick([
    good.toUpperCase(),
    `${good}0`,
    good.slice(0, -1),
    `XCK${good.slice(3)}`,
    `${good.slice(0, -1)}g`,
  ]);
}

/** Base64 of `bytes` bytes, sometimes of another length, malformed or not canonical. */
function signature(bytes: number): unknown {
  const good = Buffer.allocUnsafe(bytes);
  for (let index = 0; index < bytes; index += 1) good[index] = Math.floor(random() * 256);
  const encoded = good.toString('base64');
  if (random() < 0.75) return encoded;
  return pick<() => unknown>([
    () => Buffer.from(good.subarray(1)).toString('base64'),
    () => `${encoded.slice(0, -4)}****`,
    () => `${encoded.slice(0, -2)}==`,
    () => encoded.replaceAll('=', 'A'),
    () => [...good],
  ])();
}

const GENERATORS: Record<string, () => string> = {
  join_room: () =>
    frame('join_room', {
      roomId: text,
      username: text,
      sessionToken: () => (random() < 0.5 ? null : text()),
      accessToken: () => (random() < 0.5 ? null : text()),
    }),
  request_user_list: () => frame('request_user_list', { roomId: text }),
  typing_start: () => frame('typing_start', {}),
  typing_stop: () => frame('typing_stop', {}),
  login_challenge: () => frame('login_challenge', { keyId }),
  login_verify: () =>
    frame('login_verify', {
      keyId,
      challenge: text,
      dilithiumSignature: () => signature(3309),
      ecdsaSignature: () => signature(64),
    }),
};

/**
 * Compares the check with the schema on one frame, typed by its own `type` as the hub does.
 * Returns whether the schema and the check accepted it.
 */
function compare(json: string): { schema: boolean; fast: boolean } {
  const type = (JSON.parse(json) as { type: unknown }).type;
  if (typeof type !== 'string' || !isClientFrameType(type)) return { schema: false, fast: false };
  const expected = CLIENT_FRAME_SCHEMAS[type].safeParse(JSON.parse(json));
  const fast = fastParseClientFrame(type, JSON.parse(json) as Record<string, unknown>);
  if (fast !== null) {
    // Never more than the schema, and the same frame.
    expect(expected.success, json).toBe(true);
    expect(bytesAsHex(fast), json).toStrictEqual(bytesAsHex(expected.data));
  }
  return { schema: expected.success, fast: fast !== null };
}

/**
 * A parsed frame with each byte array as its class name and hex: compared strictly as a whole,
 * and fast (toStrictEqual's walk over a 3,309-byte signature byte by byte was most of this file's
 * time).
 */
function bytesAsHex(frame: unknown): unknown {
  if (typeof frame !== 'object' || frame === null) return frame;
  return Object.fromEntries(
    Object.entries(frame).map(([key, value]) => [
      key,
      value instanceof Uint8Array
        ? { bytes: value.constructor.name, hex: Buffer.from(value).toString('hex') }
        : value,
    ]),
  );
}

describe('fast checks of hot client frames', () => {
  it('covers the frames of a join and of a login, and nothing unplanned', () => {
    expect(Object.keys(FAST_CLIENT_FRAME_PARSERS).sort()).toEqual(Object.keys(GENERATORS).sort());
  });

  for (const type of Object.keys(GENERATORS) as ClientFrameType[]) {
    it(`${type}: accepts only what the schema accepts, with the same frame`, () => {
      const count = type.startsWith('typing') ? 500 : type === 'login_verify' ? 2000 : 5000;
      let accepted = 0;
      let taken = 0;
      for (let index = 0; index < count; index += 1) {
        const outcome = compare(GENERATORS[type]!());
        if (outcome.schema) accepted += 1;
        if (outcome.fast) taken += 1;
      }
      // Both outcomes are well represented, and the check decides nearly every accepted frame
      // itself (it leaves to the schema only strings whose length needs counting in code points).
      expect(accepted).toBeGreaterThan(count / 20);
      expect(accepted).toBeLessThan(count - count / 20);
      expect(taken).toBeGreaterThan(accepted * 0.9);
    });
  }

  it('takes the join frames clients send, trimming the username as the schema does', () => {
    const cases = [
      { type: 'join_room', roomId: 'a'.repeat(64), username: 'Ghost-4471' },
      { type: 'join_room', roomId: 'r', username: '  Ghost  ', sessionToken: 't'.repeat(64) },
      { type: 'join_room', roomId: 'r', username: 'x', sessionToken: null, accessToken: 'g' },
    ];
    for (const raw of cases) {
      const json = JSON.stringify(raw);
      expect(compare(json)).toEqual({ schema: true, fast: true });
    }
    expect(
      fastParseClientFrame('join_room', { type: 'join_room', roomId: 'r', username: '  Ghost  ' }),
    ).toEqual({ type: 'join_room', roomId: 'r', username: 'Ghost' });
  });

  it('leaves types without a check to their schema', () => {
    expect(fastParseClientFrame('send_message', { type: 'send_message' })).toBeNull();
  });
});
