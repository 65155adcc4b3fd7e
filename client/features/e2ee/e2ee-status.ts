/**
 * What the room's end-to-end encryption looks like from this browser, for the status bar, the
 * Security Protocols modal and the per-message badges. Plain data: no keys, no text.
 */
import { secureIdForKey } from '../../../shared/id-shapes.js';

/** initializing: keys being made; ready: messages leave encrypted; failed: key generation failed. */
export type E2eePhase = 'initializing' | 'ready' | 'failed';

/**
 * - `checking`: the bundle is being verified;
 * - `verified`: a key holder whose bundle signature, pins and registry agree;
 * - `unverified`: an anonymous member, or a key holder whose bundle carries no identity;
 * - `bad`: KEY SUBSTITUTION DETECTED: a forged or substituted identity; nothing is sent to them.
 */
export type MemberTrust = 'checking' | 'verified' | 'unverified' | 'bad';

export interface MemberStatus {
  nodeId: string;
  username: string;
  trust: MemberTrust;
  trustReason: string | null;
  keyId: string | null;
  /** This browser holds the member's current sender key (it can read their messages). */
  hasSenderKey: boolean;
}

export interface E2eeStatus {
  phase: E2eePhase;
  /** Messages leave encrypted now: keys made, room joined, bundle announced. */
  isReadyToSend: boolean;
  /** Key generation or the announce failed: messages will fall back to flagged PLAINTEXT. */
  hasKeyAgreementFailed: boolean;
  /** The joined room's id, or null before the first room_joined. */
  roomId: string | null;
  nodeId: string | null;
  /** This browser's current sender-key epoch. */
  epoch: { senderKeyId: string; createdAt: number } | null;
  /** When the current ML-DSA-65 message-signing key was made. */
  signingKeyCreatedAt: number | null;
  /** The key file that signs this member's bundle, or null (anonymous, or not reloaded). */
  identityKeyId: string | null;
  /** The ZK key's check value when this tab knows the room's access code. */
  zkFingerprint: string | null;
  /** True while every member announced the same ZK key, so ZK-AES-256 is in the rotation. */
  isZkInRotation: boolean;
  hasServerEntropy: boolean;
  members: MemberStatus[];
  /**
   * In a locked room: members whose key is not verified and who were given this browser's sender
   * keys after the warning. Empty in open rooms, where anyone may join by design.
   */
  unverifiedReaders: string[];
}

/** A key's public secure id (`SCK_` + 8 hex digits, DESIGN.md). */
export function secureIdOf(keyId: string): string {
  return keyId === '' ? 'unknown key' : secureIdForKey(keyId);
}

/**
 * An error's message for the crypto log. The crypto code's errors carry user-facing texts that
 * never contain keys or plaintext; anything else is named by its class only.
 */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const isOurs = ['DecryptError', 'EncryptError', 'ServerEntropyError', 'PfsExchangeError'];
    return isOurs.includes(error.name) ? error.message : error.name;
  }
  return 'unknown error';
}
