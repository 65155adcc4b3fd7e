/** Bearer tokens: 32 random bytes, base64url; only their SHA-256 is ever stored. */
import { createHash, randomBytes } from 'node:crypto';

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** The token of an `Authorization: Bearer …` header, or null. */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+([A-Za-z0-9._~+/=-]{10,512})$/.exec(header.trim());
  return match?.[1] ?? null;
}
