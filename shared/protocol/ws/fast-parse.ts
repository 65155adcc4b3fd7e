/**
 * Hand-written checks for the most frequent client frames, run before the type's zod schema.
 * Every socket sends `join_room` when it enters a room, and zod's parse of it was about a tenth of
 * the join handler's cost in the connect bench (10,000 joins, a room of 500 filling up).
 *
 * A check either returns the frame exactly as the schema's parse would (the same output) or
 * `null`: "not sure". On `null` the schema parses the frame and decides, with its own error
 * message, so a check can only accept what the schema accepts and never refuses anything itself.
 * `tests/unit/shared/protocol/fast-parse.test.ts` checks both against each other on generated
 * frames, valid and invalid.
 *
 * The input is what `JSON.parse` returned for a frame whose `type` is already known: a plain
 * object with own keys only.
 */
import { ECDSA_P256_SIGNATURE_BYTES, ML_DSA_65_SIGNATURE_BYTES } from '../../constants.js';
import { base64ToBytes } from '../../crypto/bytes.js';
import { isKeyId } from '../../ids.js';
import { isSafeSingleLineText } from '../text.js';
import type { ClientFrame, ClientFrameType } from './index.js';

type FastParser<T extends ClientFrameType> = (
  raw: Record<string, unknown>,
) => ClientFrame<T> | null;

/**
 * `z.string().min(min).max(max)` when sure. The schema counts code points, a check UTF-16 units:
 * at most `max` units is at most `max` code points, and a string of more units is left to the
 * schema (`min` is 1 here, where both measures agree).
 */
const isStringOfLength = (value: unknown, min: number, max: number): value is string =>
  typeof value === 'string' && value.length >= min && value.length <= max;

/** `z.string().max(max).nullish()` for a key that is present (units, as above). */
const isNullishString = (value: unknown, max: number): boolean =>
  value === null || (typeof value === 'string' && value.length <= max);

const JOIN_ROOM_KEYS: ReadonlySet<string> = new Set([
  'type',
  'roomId',
  'username',
  'sessionToken',
  'accessToken',
]);

/** JoinRoomFrameSchema (shared/protocol/ws/chat.ts). */
const joinRoom: FastParser<'join_room'> = (raw) => {
  for (const key in raw) if (!JOIN_ROOM_KEYS.has(key)) return null;
  if (raw.type !== 'join_room' || !isStringOfLength(raw.roomId, 1, 80)) return null;
  // displayNameSchema({ max: 64 }): trimmed, then 1–64 characters, then the single-line rule.
  if (typeof raw.username !== 'string') return null;
  const username = raw.username.trim();
  if (username.length < 1 || username.length > 64 || !isSafeSingleLineText(username)) return null;
  if ('sessionToken' in raw && !isNullishString(raw.sessionToken, 200)) return null;
  if ('accessToken' in raw && !isNullishString(raw.accessToken, 200)) return null;
  raw.username = username;
  return raw as ClientFrame<'join_room'>;
};

/** RequestUserListFrameSchema: `roomId` optional (not nullable), 1–80 characters. */
const requestUserList: FastParser<'request_user_list'> = (raw) => {
  for (const key in raw) if (key !== 'type' && key !== 'roomId') return null;
  if (raw.type !== 'request_user_list') return null;
  if ('roomId' in raw && !isStringOfLength(raw.roomId, 1, 80)) return null;
  return raw as ClientFrame<'request_user_list'>;
};

/** TypingFrameSchema: the type alone. */
const typing =
  <T extends 'typing_start' | 'typing_stop'>(type: T): FastParser<T> =>
  (raw) => {
    for (const key in raw) if (key !== 'type') return null;
    return raw.type === type ? (raw as ClientFrame<T>) : null;
  };

/** LoginChallengeFrameSchema: the type and a key id. */
const loginChallenge: FastParser<'login_challenge'> = (raw) => {
  for (const key in raw) if (key !== 'type' && key !== 'keyId') return null;
  if (raw.type !== 'login_challenge') return null;
  return typeof raw.keyId === 'string' && isKeyId(raw.keyId)
    ? (raw as ClientFrame<'login_challenge'>)
    : null;
};

const LOGIN_VERIFY_KEYS: ReadonlySet<string> = new Set([
  'type',
  'keyId',
  'challenge',
  'dilithiumSignature',
  'ecdsaSignature',
]);

/** Exactly `bytes` bytes from base64 of the schema's length, or null. */
function base64OfLength(value: unknown, bytes: number): Uint8Array<ArrayBuffer> | null {
  if (typeof value !== 'string' || value.length !== 4 * Math.ceil(bytes / 3)) return null;
  try {
    const decoded = base64ToBytes(value);
    return decoded.length === bytes ? decoded : null;
  } catch {
    return null;
  }
}

/**
 * LoginVerifyFrameSchema: a login's whole cost on the server is measured against its
 * cryptography (issue 36), and zod's walk of this frame was a tenth of the rest.
 */
const loginVerify: FastParser<'login_verify'> = (raw) => {
  let count = 0;
  for (const key in raw) {
    if (!LOGIN_VERIFY_KEYS.has(key)) return null;
    count += 1;
  }
  if (count !== LOGIN_VERIFY_KEYS.size || raw.type !== 'login_verify') return null;
  if (typeof raw.keyId !== 'string' || !isKeyId(raw.keyId)) return null;
  if (!isStringOfLength(raw.challenge, 1, 200)) return null;
  const dilithiumSignature = base64OfLength(raw.dilithiumSignature, ML_DSA_65_SIGNATURE_BYTES);
  const ecdsaSignature = base64OfLength(raw.ecdsaSignature, ECDSA_P256_SIGNATURE_BYTES);
  if (!dilithiumSignature || !ecdsaSignature) return null;
  return {
    type: 'login_verify',
    keyId: raw.keyId,
    challenge: raw.challenge,
    dilithiumSignature,
    ecdsaSignature,
  };
};

/** The frame types with a fast check; the others go straight to their schema. */
export const FAST_CLIENT_FRAME_PARSERS: { [T in ClientFrameType]?: FastParser<T> } = {
  join_room: joinRoom,
  request_user_list: requestUserList,
  typing_start: typing('typing_start'),
  typing_stop: typing('typing_stop'),
  login_challenge: loginChallenge,
  login_verify: loginVerify,
};

/**
 * The frame as `type`'s schema would parse it when a fast check is sure of it, else null (parse
 * it with the schema). `raw` is a JSON.parse result whose `type` is `type`; it may be changed in
 * place (a trimmed username) and is returned as the frame.
 */
export function fastParseClientFrame<T extends ClientFrameType>(
  type: T,
  raw: Record<string, unknown>,
): ClientFrame<T> | null {
  const parser = FAST_CLIENT_FRAME_PARSERS[type] as FastParser<T> | undefined;
  return parser ? parser(raw) : null;
}
