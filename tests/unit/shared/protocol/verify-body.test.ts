/**
 * The verify body's scanner against the reference (JSON.parse, then VerifyRequestBytesSchema): it
 * may decline any body, but whatever it accepts the reference must accept with the same value;
 * and it must accept the bodies clients send.
 */
import { describe, expect, it } from 'vitest';
import {
  ECDSA_P256_SIGNATURE_BYTES,
  ML_DSA_65_SIGNATURE_BYTES,
} from '../../../../shared/constants.js';
import {
  VerifyRequestBytesSchema,
  scanVerifyRequest,
  type VerifyRequestBytes,
} from '../../../../shared/protocol/http/verify-body.js';
import { seededRandom } from '../../../../server/features/pong/random.js';

const random = seededRandom(22);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const bytes = (count: number) => Array.from({ length: count }, () => Math.floor(random() * 256));
const KEY_ID = `SCK${'0123456789abcdef'.repeat(2)}`;

function validBody(withPublicKey = random() < 0.3): Record<string, unknown> {
  return {
    keyId: KEY_ID,
    challenge: `securechannel-login:${KEY_ID}:1764000000000:${'ab'.repeat(32)}`,
    dilithiumSignature: bytes(ML_DSA_65_SIGNATURE_BYTES),
    ecdsaSignature: bytes(ECDSA_P256_SIGNATURE_BYTES),
    ...(withPublicKey ? { publicKey: bytes(Math.floor(random() * 2000)) } : {}),
  };
}

function reference(text: string): VerifyRequestBytes | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = VerifyRequestBytesSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** The scanner's answer, checked against the reference; true when the scanner accepted. */
function check(text: string): boolean {
  const scanned = scanVerifyRequest(text);
  if (scanned === null) return false;
  const expected = reference(text);
  expect(expected, text.slice(0, 200)).not.toBeNull();
  // Field by field: toEqual over thousands of bytes, thousands of times, is slow.
  expect(Object.keys(scanned).sort()).toEqual(Object.keys(expected!).sort());
  expect([scanned.keyId, scanned.challenge]).toEqual([expected!.keyId, expected!.challenge]);
  for (const field of ['dilithiumSignature', 'ecdsaSignature', 'publicKey'] as const) {
    const value = scanned[field];
    if (!value) continue;
    expect(value).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(value).equals(Buffer.from(expected![field]!))).toBe(true);
    // A view of its whole buffer, like numbersToBytes' (a worker may be handed the buffer).
    expect(value.byteLength).toBe(value.buffer.byteLength);
  }
  return true;
}

const WHITESPACE = [' ', '\n', '\t', '\r', '  \n '];

/** JSON text of `body` with random JSON whitespace between tokens. */
function spaced(body: Record<string, unknown>): string {
  const space = () => (random() < 0.5 ? '' : pick(WHITESPACE));
  const value = (item: unknown): string =>
    Array.isArray(item)
      ? `[${space()}${item.map((entry) => `${space()}${JSON.stringify(entry)}${space()}`).join(',')}${space()}]`
      : JSON.stringify(item);
  const members = Object.entries(body).map(
    ([name, item]) =>
      `${space()}${JSON.stringify(name)}${space()}:${space()}${value(item)}${space()}`,
  );
  return `${space()}{${members.join(',')}}${space()}`;
}

/** One alteration of a valid body's text or value. */
const MUTATIONS: ((body: Record<string, unknown>, text: string) => string)[] = [
  (_body, text) => text.slice(0, Math.floor(random() * text.length)),
  (_body, text) => `${text}${pick(['x', ',', '}', '0', ' {}'])}`,
  (_body, text) => `\uFEFF${text}`,
  (_body, text) => {
    const at = Math.floor(random() * text.length);
    return `${text.slice(0, at)}${pick(['-', '.', 'e', 'E', '0', '9', ' ', ',', '"', '\\', '\u0000', '+'])}${text.slice(at)}`;
  },
  (_body, text) => {
    const at = Math.floor(random() * text.length);
    return `${text.slice(0, at)}${text.slice(at + 1)}`;
  },
  (body) => {
    const field = pick(['dilithiumSignature', 'ecdsaSignature', 'publicKey']);
    const list = [...((body[field] as number[] | undefined) ?? bytes(3))];
    const replacement = pick([
      '-1',
      '256',
      '1.0',
      '1.5',
      '1e2',
      '1E0',
      '01',
      '-0',
      '00',
      '"1"',
      'null',
      'true',
      '[]',
      '999',
      '255',
      '0',
      '2.55e2',
      '0.0',
    ]);
    const at = Math.floor(random() * list.length);
    const items = list.map(String);
    items[at] = replacement;
    return JSON.stringify({ ...body, [field]: '@' }).replace('"@"', `[${items.join(',')}]`);
  },
  (body) => {
    const field = pick(['dilithiumSignature', 'ecdsaSignature', 'publicKey']);
    const list = [...((body[field] as number[] | undefined) ?? [])];
    if (random() < 0.5) list.pop();
    else list.push(7);
    return JSON.stringify({ ...body, [field]: list });
  },
  (body) => JSON.stringify({ ...body, publicKey: bytes(4096 + Math.floor(random() * 2)) }),
  (body) => {
    const { [pick(Object.keys(body))]: _dropped, ...rest } = body;
    return JSON.stringify(rest);
  },
  (body) => JSON.stringify({ ...body, [pick(['extra', '__proto__', 'constructor', 'keyid'])]: 1 }),
  (body, text) => {
    const field = pick(Object.keys(body));
    return text.replace('}', `,${JSON.stringify(field)}:${JSON.stringify(body[field])}}`);
  },
  (body, text) => `{"keyId":"${KEY_ID}",${text.slice(1)}`,
  (body) =>
    JSON.stringify({
      ...body,
      [pick(['keyId', 'challenge'])]: pick([
        '',
        'x'.repeat(200),
        'x'.repeat(201),
        'SCK0123',
        `SCK${'0123456789ABCDEF'.repeat(2)}`,
        `sck${'0123456789abcdef'.repeat(2)}`,
        'tab\there',
        'quote"here',
        'nul\u0000here',
        'é ünïcödé \u2028',
        '\ud800',
        1,
        null,
        [],
        {},
      ]),
    }),
  (body, text) => text.replace('keyId', pick(['key\\u0049d', 'keyI\\u0064'])),
  (body, text) => text.replace('securechannel', 'secure\\u0063hannel'),
  (body) =>
    JSON.stringify({
      ...body,
      [pick(['dilithiumSignature', 'ecdsaSignature'])]: pick([null, 'AAAA', {}, 5, []]),
    }),
  () => pick(['', '{}', '[]', 'null', '1', '"x"', '{', '{"keyId"}', '{"keyId":}', '{,}']),
];

describe('scanVerifyRequest', () => {
  it('reads the bodies clients send, as the schema does', () => {
    for (let round = 0; round < 50; round += 1) {
      const body = validBody();
      expect(check(JSON.stringify(body))).toBe(true);
      expect(check(JSON.stringify(body, null, 2))).toBe(true);
    }
  });

  it(
    'reads bodies with any JSON whitespace and field order, as the schema does',
    { timeout: 30_000 },
    () => {
      let accepted = 0;
      for (let round = 0; round < 300; round += 1) {
        const entries = Object.entries(validBody());
        entries.sort(() => random() - 0.5);
        if (check(spaced(Object.fromEntries(entries)))) accepted += 1;
      }
      expect(accepted).toBe(300);
    },
  );

  it('never accepts what the schema refuses, nor yields another value', { timeout: 60_000 }, () => {
    let declined = 0;
    let validByReference = 0;
    for (let round = 0; round < 3000; round += 1) {
      const body = validBody();
      const text = pick(MUTATIONS)(body, random() < 0.5 ? JSON.stringify(body) : spaced(body));
      if (!check(text)) declined += 1;
      if (reference(text) !== null) validByReference += 1;
    }
    // Both kinds occur: bodies the scanner declines, and altered bodies that are still valid.
    expect(declined).toBeGreaterThan(1000);
    expect(validByReference).toBeGreaterThan(100);
  });

  it('declines forms it leaves to JSON.parse, though they are valid', () => {
    const body = validBody(false);
    const text = JSON.stringify(body);
    for (const variant of [
      text.replace('[', '[1.0,').replace(/,\d+\]/, ']'),
      text.replace('keyId', 'key\\u0049d'),
      text.replace('}', `,"keyId":"${KEY_ID}"}`),
    ]) {
      expect(reference(variant)).not.toBeNull();
      expect(scanVerifyRequest(variant)).toBeNull();
    }
  });
});
