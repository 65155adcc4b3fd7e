/**
 * The key file (`.sck` / `.bin`): its schema, parsing with the spec's error texts, and its text
 * form. Creation, integrity checking and signing live in `key-file.ts`.
 *
 * A key file is one JSON object (spec 000 §3, spec 001 §5; DESIGN.md "Wire formats"):
 *
 * ```
 * {
 *   "version": 1,
 *   "keyId": "SCK" + 32 hex,            "userId": "USR" + 32 hex,
 *   "username": "alice",                 1..64 characters, no surrounding whitespace
 *   "created": ISO,  "expires": ISO | null (or absent: never expires),
 *   "dilithiumPublicKey":  [1952 bytes]  ML-DSA-65 public key
 *   "dilithiumPrivateKey": [4032 bytes]  ML-DSA-65 secret key            (optional)
 *   "ecdsaPublicKey":      [65 bytes]    P-256 uncompressed point
 *   "ecdsaPrivateKey":     [PKCS#8]      P-256 private key, 138 bytes    (optional)
 *   "permissions": { "level", "rooms": ["all"], "capabilities", "issued": ISO, "expires": ISO | null },
 *   "fingerprint": 64 hex                SHA-256(dilithiumPublicKey ‖ ecdsaPublicKey)
 *   "hardwareFingerprint": 64 hex        SHA-256 of 32 random bytes (see below)
 *   "selfSignature": [3309 bytes]        ML-DSA-65 over the signed fields (key-file.ts)
 *   "timestamp": ISO
 * }
 * ```
 *
 * `hardwareFingerprint` keeps the field the specs name, but it is not tied to any hardware: it is
 * SHA-256 of 32 random bytes drawn when the key is made. A browser exposes no stable hardware
 * identifier (and should not, for privacy), and binding a key to one machine would stop a user
 * from carrying the file to another device, which is what a key file is for. It is covered by the
 * self-signature, so it identifies one issuance of a key and cannot be changed afterwards.
 */
import { z } from 'zod';
import {
  ECDSA_P256_PUBLIC_KEY_BYTES,
  ML_DSA_65_PRIVATE_KEY_BYTES,
  ML_DSA_65_PUBLIC_KEY_BYTES,
  ML_DSA_65_SIGNATURE_BYTES,
} from '../constants.js';
import { KeyIdSchema, UserIdSchema } from '../ids.js';
import { TEXT } from '../protocol/errors.js';
import { isSafeSingleLineText, TEXT_RULE_PARAMS, unsafeTextMessage } from '../protocol/text.js';
import { isByteValue } from './bytes.js';
import {
  EncryptionPrivateKeySchema,
  EncryptionPublicKeySchema,
} from './dm/encryption-key-schema.js';
import { FINGERPRINT_PATTERN } from './fingerprint.js';
import { type KeyFileErrorCode } from './key-file-error.js';

/** The only key-file format version. */
export const KEY_FILE_VERSION = 1;
/** Longest key-file text parsed, in characters; longer text is refused before `JSON.parse`. */
export const KEY_FILE_MAX_CHARS = 256 * 1024;
/** Longest username, in characters. */
export const KEY_USERNAME_MAX_LENGTH = 64;

const IsoDateTimeSchema = z.iso.datetime({ offset: true });
const ByteSchema = z.number().refine(isByteValue, 'Expected an integer in 0..255');
const bytesOfLength = (length: number) => z.array(ByteSchema).length(length);
// Room names are set by administrators; the bounds only keep a hostile file small.
const RoomScopeSchema = z.string().min(1).max(128);

export {
  KeyCapabilitySchema,
  KeyPermissionLevelSchema,
  type KeyCapability,
  type KeyPermissionLevel,
} from './key-levels.js';
import {
  KeyCapabilitySchema,
  KeyPermissionLevelSchema,
  type KeyCapability,
  type KeyPermissionLevel,
} from './key-levels.js';

/**
 * A key's username: 1 to 64 characters, no leading or trailing whitespace, none of the control
 * or bidirectional formatting characters of the shared text rule (shared/protocol/text.ts).
 */
export const KeyUsernameSchema = z
  .string()
  .min(1)
  .max(KEY_USERNAME_MAX_LENGTH)
  .refine((value) => value.trim() === value, 'Username must not start or end with whitespace')
  .refine(isSafeSingleLineText, {
    message: unsafeTextMessage('Username'),
    params: TEXT_RULE_PARAMS,
  });

/** A key's `permissions` object. `expires`: null or absent means never. */
export const KeyPermissionsSchema = z.strictObject({
  level: KeyPermissionLevelSchema,
  rooms: z.array(RoomScopeSchema).min(1).max(64),
  capabilities: z.array(KeyCapabilitySchema).max(KeyCapabilitySchema.options.length),
  issued: IsoDateTimeSchema,
  expires: IsoDateTimeSchema.nullable().optional(),
});
export type KeyPermissions = z.infer<typeof KeyPermissionsSchema>;

/** A whole key file. Strict: an unknown field makes the file invalid rather than being dropped. */
export const KeyFileSchema = z.strictObject({
  version: z.literal(KEY_FILE_VERSION),
  keyId: KeyIdSchema,
  userId: UserIdSchema,
  username: KeyUsernameSchema,
  created: IsoDateTimeSchema,
  expires: IsoDateTimeSchema.nullable().optional(),
  dilithiumPublicKey: bytesOfLength(ML_DSA_65_PUBLIC_KEY_BYTES),
  dilithiumPrivateKey: bytesOfLength(ML_DSA_65_PRIVATE_KEY_BYTES).optional(),
  ecdsaPublicKey: bytesOfLength(ECDSA_P256_PUBLIC_KEY_BYTES),
  ecdsaPrivateKey: z.array(ByteSchema).min(32).max(512).optional(),
  permissions: KeyPermissionsSchema,
  fingerprint: z.string().regex(FINGERPRINT_PATTERN),
  hardwareFingerprint: z.string().regex(FINGERPRINT_PATTERN),
  selfSignature: bytesOfLength(ML_DSA_65_SIGNATURE_BYTES),
  /** Direct-message encryption key (hybrid ML-KEM-768 + X25519); absent in older key files. */
  encryptionPublicKey: EncryptionPublicKeySchema.optional(),
  encryptionPrivateKey: EncryptionPrivateKeySchema.optional(),
  /** ML-DSA-65 signature binding the encryption key to this identity (shared/crypto/dm). */
  encryptionKeySignature: bytesOfLength(ML_DSA_65_SIGNATURE_BYTES).optional(),
  timestamp: IsoDateTimeSchema,
});
export type KeyFile = z.infer<typeof KeyFileSchema>;

/**
 * The public part of a key file: everything but the two private keys. This is what is
 * registered with a server; being strict, it refuses a body that still carries private keys.
 */
export const KeyPublicPartSchema = KeyFileSchema.omit({
  dilithiumPrivateKey: true,
  encryptionPrivateKey: true,
  ecdsaPrivateKey: true,
});
export type KeyPublicPart = z.infer<typeof KeyPublicPartSchema>;

/** Field order of the text form, as the spec lists the fields. */
// Object.keys is typed string[]; the keys of the schema's shape are exactly the KeyFile keys.
const KEY_FILE_FIELD_ORDER = Object.keys(KeyFileSchema.shape) as readonly (keyof KeyFile)[];

/** The capabilities a newly made key of `level` carries (spec 000 §3). */
export function capabilitiesForLevel(level: KeyPermissionLevel): KeyCapability[] {
  return level === 'admin' ? ['admin', 'chat', 'upload', 'moderate'] : ['chat', 'upload'];
}

/** `keyFile` without its private keys (a new object; the argument is not changed). */
export function publicPart(keyFile: KeyFile): KeyPublicPart {
  const {
    dilithiumPrivateKey: _dilithium,
    ecdsaPrivateKey: _ecdsa,
    encryptionPrivateKey: _encryption,
    ...rest
  } = keyFile;
  return rest;
}

/** Result of parsing a key file: the file, or the spec's error text with its code. */
export type KeyFileParseResult =
  { ok: true; keyFile: KeyFile } | { ok: false; code: KeyFileErrorCode; error: string };

/**
 * Parses a key file that is already a JavaScript value (e.g. from `JSON.parse`). Missing
 * `keyId`, `username` or `permissions` (or a value that is not an object) gives
 * `TEXT.invalidKeyFields`; any other schema failure `TEXT.keyParseFailed`.
 */
export function parseKeyFile(value: unknown): KeyFileParseResult {
  const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
  const hasRequired =
    isObject && ['keyId', 'username', 'permissions'].every((field) => hasValue(value, field));
  if (!hasRequired) return { ok: false, code: 'missing-fields', error: TEXT.invalidKeyFields };
  const parsed = KeyFileSchema.safeParse(value);
  if (!parsed.success) return { ok: false, code: 'parse-failed', error: TEXT.keyParseFailed };
  return { ok: true, keyFile: parsed.data };
}

/**
 * Parses the text of a key file: size check, `JSON.parse`, then {@link parseKeyFile}.
 * Not JSON gives `TEXT.invalidKeyJson`. Never throws, and error texts never echo the input.
 * Parsing does not check signatures: call `verifyKeyFileIntegrity` next.
 */
export function parseKeyFileText(text: string): KeyFileParseResult {
  if (text.length > KEY_FILE_MAX_CHARS) {
    return { ok: false, code: 'parse-failed', error: TEXT.keyParseFailed };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, code: 'invalid-json', error: TEXT.invalidKeyJson };
  }
  return parseKeyFile(value);
}

function hasValue(value: object, field: string): boolean {
  const descriptor = Object.getOwnPropertyDescriptor(value, field);
  return descriptor !== undefined && descriptor.value !== undefined && descriptor.value !== null;
}

/**
 * The text of a key file: indented JSON in the spec's field order, each byte array kept on one
 * line so the file stays readable. Ends with a newline.
 */
export function serializeKeyFile(keyFile: KeyFile): string {
  const ordered: Record<string, unknown> = {};
  for (const field of KEY_FILE_FIELD_ORDER) {
    if (keyFile[field] !== undefined) ordered[field] = keyFile[field];
  }
  return `${writePretty(ordered, '')}\n`;
}

function writePretty(value: unknown, indent: string): string {
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    // Arrays of primitives (byte arrays, rooms, capabilities) go on one line.
    if (value.every((item) => typeof item !== 'object' || item === null)) {
      return JSON.stringify(value);
    }
    return `[\n${value.map((item) => inner + writePretty(item, inner)).join(',\n')}\n${indent}]`;
  }
  if (typeof value === 'object' && value !== null) {
    const members = Object.entries(value).filter(([, member]) => member !== undefined);
    if (members.length === 0) return '{}';
    const lines = members.map(
      ([key, member]) => `${inner}${JSON.stringify(key)}: ${writePretty(member, inner)}`,
    );
    return `{\n${lines.join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(value);
}

/**
 * A file name for `username`'s key: letters, digits, `_` and `-` kept, every other run of
 * characters becomes `_`, at most 64 characters, then `.sck` (`key.sck` if nothing is left).
 */
export function keyFileName(username: string): string {
  const safe = username
    .normalize('NFKC')
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, KEY_USERNAME_MAX_LENGTH);
  return `${safe === '' ? 'key' : safe}.sck`;
}

/** True when `name` ends in `.sck` or `.bin`, in any letter case (spec 000 §5). */
export function isKeyFileName(name: string): boolean {
  return /\.(sck|bin)$/i.test(name);
}

/**
 * True when the key has expired at `now`: its `expires` (or the string given) is at or before
 * `now`. `null` or absent means the key never expires. An unreadable date counts as expired, so
 * a damaged value fails closed.
 */
export function isKeyExpired(
  keyFileOrExpires: Pick<KeyFile, 'expires'> | string | null | undefined,
  now: Date,
): boolean {
  const expires =
    typeof keyFileOrExpires === 'object' && keyFileOrExpires !== null
      ? keyFileOrExpires.expires
      : keyFileOrExpires;
  if (expires === null || expires === undefined) return false;
  const expiresAt = Date.parse(expires);
  return Number.isNaN(expiresAt) || expiresAt <= now.getTime();
}
