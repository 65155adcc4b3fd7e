/**
 * Text that people type and others see rendered (room names, callsigns, usernames, admin notices)
 * is checked by one rule everywhere (issue 15): control characters and the invisible Unicode
 * controls that reorder text are refused, not stripped, so that what the sender typed is exactly
 * what everyone sees, or nothing is sent.
 *
 * Refused:
 * - C0 controls U+0000–U+001F (NUL included: PostgreSQL cannot store it), DEL U+007F and C1
 *   controls U+0080–U+009F; multi-line text keeps line feed and tab;
 * - bidirectional formatting: embeddings and overrides U+202A–U+202E, isolates U+2066–U+2069,
 *   and the marks U+200E, U+200F and U+061C, which let a name display as something else
 *   ("Trojan Source", CVE-2021-42574);
 * - U+FEFF (a byte-order mark inside text) and the line and paragraph separators U+2028/U+2029.
 */
import { z } from 'zod';

/** Bidi formatting characters, separators and the byte-order mark (see above). */
const REFUSED_FORMAT_CHARACTERS: ReadonlySet<number> = new Set([
  0x061c, 0x200e, 0x200f, 0x2028, 0x2029, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067,
  0x2068, 0x2069, 0xfeff,
]);

/** True when `text` holds a refused character; line feed and tab pass when `allowLineBreaks`. */
function hasRefusedCharacter(text: string, allowLineBreaks: boolean): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code <= 0x1f) {
      if (allowLineBreaks && (code === 0x0a || code === 0x09)) continue;
      return true;
    }
    if ((code >= 0x7f && code <= 0x9f) || REFUSED_FORMAT_CHARACTERS.has(code)) return true;
  }
  return false;
}

/** Marks the issue so that error answers may quote its (fixed, input-free) message. */
export const TEXT_RULE_PARAMS = { textRule: true } as const;

/** The message of a refused text; names the field, never quotes the input. */
export function unsafeTextMessage(label: string): string {
  return `${label} must not contain control or bidirectional formatting characters`;
}

/** True when `value` holds nothing the single-line rule refuses. */
export function isSafeSingleLineText(value: string): boolean {
  return !hasRefusedCharacter(value, false);
}

/** True when `value` holds nothing the multi-line rule refuses (line feeds and tabs allowed). */
export function isSafeMultiLineText(value: string): boolean {
  return !hasRefusedCharacter(value, true);
}

/**
 * A single-line rendered field (a name, a callsign): trimmed, `min`..`max` characters, refused
 * when it holds a control or bidi character. `label` names the field in the error message.
 */
export function displayNameSchema(options: {
  label: string;
  max: number;
  min?: number;
  minMessage?: string;
}) {
  return z
    .string()
    .trim()
    .min(options.min ?? 1, options.minMessage)
    .max(options.max)
    .refine(isSafeSingleLineText, {
      message: unsafeTextMessage(options.label),
      params: TEXT_RULE_PARAMS,
    });
}

/** Like {@link displayNameSchema}, without trimming or a minimum (optional short fields). */
export function safeSingleLineSchema(options: { label: string; max: number }) {
  return z
    .string()
    .max(options.max)
    .refine(isSafeSingleLineText, {
      message: unsafeTextMessage(options.label),
      params: TEXT_RULE_PARAMS,
    });
}

/** A multi-line rendered text (a notice, a reason): line feeds and tabs allowed, nothing else. */
export function displayTextSchema(options: { label: string; max: number; min?: number }) {
  return z
    .string()
    .trim()
    .min(options.min ?? 1)
    .max(options.max)
    .refine(isSafeMultiLineText, {
      message: unsafeTextMessage(options.label),
      params: TEXT_RULE_PARAMS,
    });
}

/** True when a zod issue came from the text rule (its message is then safe to show). */
export function isTextRuleIssue(issue: unknown): boolean {
  if (typeof issue !== 'object' || issue === null || !('params' in issue)) return false;
  const params = issue.params;
  return typeof params === 'object' && params !== null && 'textRule' in params;
}
