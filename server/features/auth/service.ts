/**
 * Key registration, challenge–response login and sessions (DESIGN.md "Login"). No Fastify, no
 * sockets: routes.ts and the realtime hub both call this.
 */
import { randomBytes } from 'node:crypto';
import { AUTH_CHALLENGE_TTL_MS, KEY_SESSION_TTL_MS } from '../../../shared/constants.js';
import { numbersToBytes, utf8Encode } from '../../../shared/crypto/bytes.js';
import { verifyKeyFileIntegrity } from '../../../shared/crypto/key-file.js';
import {
  capabilitiesForLevel,
  type KeyPermissionLevel,
  type KeyPublicPart,
} from '../../../shared/crypto/key-file-schema.js';
import { normalizeSecureId, secureIdForKey } from '../../../shared/ids.js';
import { TEXT } from '../../../shared/protocol/errors.js';
import type {
  AdminKeyList,
  ChallengeResponse,
  RegisteredUser,
  SessionUser,
  VerifyResponse,
} from '../../../shared/protocol/http/auth.js';
import type { VerifyRequestBytes } from '../../../shared/protocol/http/verify-body.js';
import { AppError } from '../../errors.js';
import type { AttemptCounter } from '../../lib/attempt-counter.js';
import type { ChallengeStore } from './challenges.js';
import type { AuthStore, KeyRow } from './store.js';
import { hashToken, newToken } from './tokens.js';
import type { SignatureVerifier } from './verify-pool.js';

/** An authenticated key holder, as request handlers and socket handlers see them. */
export interface KeyPrincipal extends SessionUser {
  kind: 'key';
  tokenHash: string;
}

export interface AuthServiceDeps {
  store: AuthStore;
  challenges: ChallengeStore;
  verifier: SignatureVerifier;
  /**
   * Failed verifications per key and visitor (server/lib/visitor.ts; reserved before the signatures are checked,
   * refunded on success). Challenges are not counted per key: key ids are public, so counting
   * them would let anyone block a key holder's logins (issue 15).
   */
  keyFailures: AttemptCounter;
  now: () => number;
  /** Told when a key is revoked, so every process closes its open sockets at once. */
  onRevoked: (keyId: string) => Promise<void>;
}

export function toSessionUser(key: KeyRow): SessionUser {
  return {
    keyId: key.keyId,
    username: key.username,
    secureId: secureIdForKey(key.keyId),
    permissions: {
      level: key.permissionLevel,
      capabilities: capabilitiesForLevel(key.permissionLevel),
    },
    expires: key.expiresAt ? key.expiresAt.toISOString() : null,
  };
}

export interface RegisteredKey {
  keyId: string;
  username: string;
  level: KeyPermissionLevel;
}

/**
 * Registers the public part of a key. The caller must already be an admin; the file must pass
 * the integrity check (fingerprint and self-signature). Capabilities come from the level, never
 * from the file. Used by the API and by `npm run keygen`.
 */
export async function registerPublicKey(
  store: Pick<AuthStore, 'insertKey'>,
  key: KeyPublicPart,
): Promise<RegisteredKey> {
  const integrity = await verifyKeyFileIntegrity(key);
  if (!integrity.ok) throw new AppError('KEY_INTEGRITY', 400, TEXT.keyIntegrityFailed);
  const level = key.permissions.level;
  const expires = key.permissions.expires ?? key.expires ?? null;
  const inserted = await store.insertKey({
    keyId: key.keyId,
    userId: key.userId,
    username: key.username,
    dilithiumPublicKey: numbersToBytes(key.dilithiumPublicKey),
    ecdsaPublicKey: numbersToBytes(key.ecdsaPublicKey),
    fingerprint: key.fingerprint,
    permissionLevel: level,
    capabilities: capabilitiesForLevel(level),
    rooms: ['all'],
    issuedAt: new Date(key.permissions.issued),
    expiresAt: expires ? new Date(expires) : null,
    selfSignature: numbersToBytes(key.selfSignature),
    hardwareFingerprint: key.hardwareFingerprint,
    kemPublicKey: key.encryptionPublicKey ? numbersToBytes(key.encryptionPublicKey.kem) : null,
    x25519PublicKey: key.encryptionPublicKey
      ? numbersToBytes(key.encryptionPublicKey.x25519)
      : null,
    encryptionKeySignature: key.encryptionKeySignature
      ? numbersToBytes(key.encryptionKeySignature)
      : null,
  });
  if (!inserted) throw new AppError('KEY_EXISTS', 409, TEXT.keyAlreadyRegistered);
  return { keyId: key.keyId, username: key.username, level };
}

/**
 * How long a key row read for a login is reused. Public keys never change; revocation clears the
 * entry at once on every process (service event); after a Redis outage in which events may have
 * been missed every row is dropped (compose.ts), and this bound covers the rest. Sessions
 * are checked against the database's revocation mark regardless.
 */
export const KEY_CACHE_TTL_MS = 60_000;

/** The window of the failed-verification limit per key and address (issue 15). */
export const KEY_LOGIN_FAILURE_WINDOW_MS = 15 * 60_000;
const KEY_CACHE_CAP = 10_000;

export class AuthService {
  /** keyId → row and when it was read: a login reads its key twice without the database. */
  private readonly keyCache = new Map<string, { row: KeyRow; readAt: number }>();

  constructor(private readonly deps: AuthServiceDeps) {}

  private date(): Date {
    return new Date(this.deps.now());
  }

  /**
   * Registers the public part of a key. The caller must already be an admin; the file must pass
   * the integrity check (fingerprint and self-signature). Capabilities come from the level,
   * never from the file.
   */
  async registerKey(key: KeyPublicPart): Promise<RegisteredKey> {
    return registerPublicKey(this.deps.store, key);
  }

  /** A single-use challenge for a registered, usable key. */
  async issueChallenge(keyId: string): Promise<ChallengeResponse> {
    const key = await this.usableKey(keyId);
    const issuedAt = this.date();
    const expiresAt = new Date(issuedAt.getTime() + AUTH_CHALLENGE_TTL_MS);
    // One draw for both: 16 bytes of nonce, 32 of challenge.
    const random = randomBytes(48);
    const nonce = random.toString('hex', 0, 16);
    // The challenge names the product, the key and the time, so a signature over it cannot be
    // replayed as a signature over anything else.
    const challenge = `securechannel-login:${key.keyId}:${issuedAt.getTime()}:${random.toString('hex', 16)}`;
    await this.deps.challenges.put(challenge, { keyId: key.keyId, expiresAt: expiresAt.getTime() });
    return {
      challenge,
      nonce,
      timestamp: issuedAt.toISOString(),
      expiresAt: expiresAt.toISOString(),
    };
  }

  /**
   * Checks both signatures of a challenge against the registered keys and opens a session. Every
   * attempt from `visitor` for the key is counted first and given back if it succeeds, so only
   * failures use up the (key, visitor) limit, and concurrent attempts cannot pass it.
   */
  async verify(request: VerifyRequestBytes, visitor: string): Promise<VerifyResponse> {
    const attemptKey = `${request.keyId}|${visitor}`;
    if (!(await this.deps.keyFailures.reserve(attemptKey))) {
      throw new AppError('RATE_LIMITED', 429, TEXT.tooManyRequests);
    }
    const response = await this.checkAndOpenSession(request);
    await this.deps.keyFailures.refund(attemptKey);
    return response;
  }

  private async checkAndOpenSession(request: VerifyRequestBytes): Promise<VerifyResponse> {
    const challenge = await this.deps.challenges.take(request.challenge, request.keyId);
    if (!challenge || challenge.expiresAt <= this.deps.now()) {
      throw new AppError('CHALLENGE_INVALID', 401, TEXT.challengeInvalid);
    }
    const key = await this.usableKey(request.keyId);
    const valid = await this.deps.verifier.verifyLogin({
      message: utf8Encode(request.challenge),
      mlDsaSignature: request.dilithiumSignature,
      mlDsaPublicKey: key.dilithiumPublicKey,
      ecdsaSignature: request.ecdsaSignature,
      ecdsaPublicKey: key.ecdsaPublicKey,
    });
    if (!valid) throw new AppError('SIGNATURE_INVALID', 401, TEXT.signatureInvalid);

    const token = newToken();
    const createdAt = this.date();
    const sessionEnd = createdAt.getTime() + KEY_SESSION_TTL_MS;
    // A session never outlives its key.
    const expiresAt = new Date(
      key.expiresAt ? Math.min(sessionEnd, key.expiresAt.getTime()) : sessionEnd,
    );
    await this.deps.store.insertSession({
      tokenHash: hashToken(token),
      keyId: key.keyId,
      createdAt,
      expiresAt,
    });
    return { sessionToken: token, expiresAt: expiresAt.toISOString(), user: toSessionUser(key) };
  }

  /** The key holder behind a bearer token, or null when the token is unknown, expired or revoked. */
  async authenticate(token: string): Promise<KeyPrincipal | null> {
    const now = this.date();
    const session = await this.deps.store.findSession(hashToken(token), now);
    if (!session || session.key.revokedAt) return null;
    if (session.key.expiresAt && session.key.expiresAt <= now) return null;
    return { kind: 'key', tokenHash: session.tokenHash, ...toSessionUser(session.key) };
  }

  async logout(token: string): Promise<void> {
    await this.deps.store.deleteSession(hashToken(token));
  }

  async listKeys(): Promise<AdminKeyList> {
    const rows = await this.deps.store.listKeys();
    return {
      keys: rows.map((row) => ({
        keyId: row.keyId,
        username: row.username,
        permissions: { level: row.permissionLevel },
        expires: row.expiresAt ? row.expiresAt.toISOString() : null,
        createdAt: row.createdAt.toISOString(),
        revoked: row.revokedAt !== null,
        fingerprint: row.fingerprint,
      })),
    };
  }

  /** Revokes a key: its sessions end and its sockets are closed at once. */
  async revokeKey(keyId: string): Promise<number> {
    const ended = await this.deps.store.revokeKey(keyId, this.date());
    if (ended === null) throw new AppError('KEY_NOT_FOUND', 404, TEXT.keyNotRegistered);
    await this.forgetKey(keyId);
    await this.deps.onRevoked(keyId);
    return ended;
  }

  /** Drops what this process remembers of a key (its cached row and open challenges). */
  async forgetKey(keyId: string): Promise<void> {
    this.keyCache.delete(keyId);
    await this.deps.challenges.forgetKey(keyId);
  }

  /**
   * Drops every key row this process keeps: after revocations published by other processes may
   * have been missed, each key is read from the database again at its next use.
   */
  forgetAllKeys(): void {
    this.keyCache.clear();
  }

  /** Key holders others can write to: usable keys only. */
  async registeredUsers(): Promise<RegisteredUser[]> {
    const now = this.date();
    return (await this.deps.store.listKeys())
      .filter((row) => !row.revokedAt && (!row.expiresAt || row.expiresAt > now))
      .map((row) => {
        const secureId = secureIdForKey(row.keyId);
        return {
          keyId: row.keyId,
          secureId,
          normalizedSecureId: normalizeSecureId(secureId),
          username: row.username,
        };
      });
  }

  async sweepExpired(): Promise<void> {
    await this.deps.store.deleteExpired(this.date());
  }

  private async findKey(keyId: string): Promise<KeyRow | null> {
    const now = this.deps.now();
    const cached = this.keyCache.get(keyId);
    if (cached && now - cached.readAt < KEY_CACHE_TTL_MS) return cached.row;
    const row = await this.deps.store.findKey(keyId);
    // Unknown keys are not cached: a key registered a moment later must be usable at once.
    if (row) {
      this.keyCache.delete(keyId);
      if (this.keyCache.size >= KEY_CACHE_CAP) {
        const oldest = this.keyCache.keys().next();
        if (!oldest.done) this.keyCache.delete(oldest.value);
      }
      this.keyCache.set(keyId, { row, readAt: now });
    }
    return row;
  }

  private async usableKey(keyId: string): Promise<KeyRow> {
    const key = await this.findKey(keyId);
    if (!key) throw new AppError('KEY_NOT_FOUND', 401, TEXT.keyNotRegistered);
    if (key.revokedAt) throw new AppError('KEY_REVOKED', 401, TEXT.keyRevoked);
    if (key.expiresAt && key.expiresAt.getTime() <= this.deps.now()) {
      throw new AppError('KEY_EXPIRED', 401, TEXT.keyExpired);
    }
    return key;
  }
}
