/**
 * The key generation form's rules (spec 000 §5, spec 001 §5): a username is required ('Username
 * Required' / 'Please enter a username for the key'); validity is a whole number of days, at
 * least 0, where 0 means the key never expires; the default is 365.
 */
import { DEFAULT_KEY_VALIDITY_DAYS } from '../../../shared/constants.js';
import {
  KEY_USERNAME_MAX_LENGTH,
  KeyPermissionLevelSchema,
  KeyUsernameSchema,
  type KeyPermissionLevel,
} from '../../../shared/crypto/key-file-schema.js';
import { TEXT } from '../../../shared/protocol/errors.js';

/**
 * The longest validity offered, in days (100 years). The specs set no maximum; past this a date
 * stops meaning anything to a person, and far beyond it JavaScript dates become invalid.
 */
export const MAX_KEY_VALIDITY_DAYS = 36_500;

/** The form's starting value for validity days. */
export const DEFAULT_VALIDITY_INPUT = String(DEFAULT_KEY_VALIDITY_DAYS);

/** Levels offered by the form, most powerful first. */
export const KEY_LEVEL_OPTIONS: readonly KeyPermissionLevel[] = KeyPermissionLevelSchema.options;

export const VALIDITY_DAYS_ERROR = `Validity must be a whole number of days from 0 to ${MAX_KEY_VALIDITY_DAYS}`;

export type ValidityParseResult = { ok: true; days: number } | { ok: false; error: string };

/** Parses the validity field: digits only (after trimming), 0 to {@link MAX_KEY_VALIDITY_DAYS}. */
export function parseValidityDays(input: string): ValidityParseResult {
  const trimmed = input.trim();
  if (!/^\d{1,6}$/.test(trimmed)) return { ok: false, error: VALIDITY_DAYS_ERROR };
  const days = Number(trimmed);
  if (days > MAX_KEY_VALIDITY_DAYS) return { ok: false, error: VALIDITY_DAYS_ERROR };
  return { ok: true, days };
}

export interface KeyGenerationForm {
  username: string;
  level: KeyPermissionLevel;
  validityDays: string;
}

export interface KeyGenerationRequest {
  username: string;
  level: KeyPermissionLevel;
  validityDays: number;
}

/** A refusal: the field at fault, a toast title and the text to show. */
export interface KeyGenerationProblem {
  field: 'username' | 'validityDays';
  title: string;
  description: string;
}

export type KeyGenerationCheck =
  { ok: true; request: KeyGenerationRequest } | { ok: false; problem: KeyGenerationProblem };

/** Checks the form; on success the username is trimmed and the days are a number. */
export function checkKeyGenerationForm(form: KeyGenerationForm): KeyGenerationCheck {
  const username = form.username.trim();
  if (username === '') {
    return {
      ok: false,
      problem: {
        field: 'username',
        title: TEXT.usernameRequiredTitle,
        description: TEXT.usernameRequired,
      },
    };
  }
  if (!KeyUsernameSchema.safeParse(username).success) {
    return {
      ok: false,
      problem: {
        field: 'username',
        title: TEXT.generationFailedTitle,
        description: `Username must be 1 to ${KEY_USERNAME_MAX_LENGTH} printable characters`,
      },
    };
  }
  const validity = parseValidityDays(form.validityDays);
  if (!validity.ok) {
    return {
      ok: false,
      problem: {
        field: 'validityDays',
        title: TEXT.generationFailedTitle,
        description: validity.error,
      },
    };
  }
  return { ok: true, request: { username, level: form.level, validityDays: validity.days } };
}

/** What the chosen validity means, for the hint under the field. */
export function describeValidity(input: string, now: Date): string {
  const validity = parseValidityDays(input);
  if (!validity.ok) return validity.error;
  if (validity.days === 0) return 'Never expires';
  const expires = new Date(now.getTime() + validity.days * 86_400_000);
  return `Expires ${expires.toISOString().slice(0, 10)} (UTC)`;
}
