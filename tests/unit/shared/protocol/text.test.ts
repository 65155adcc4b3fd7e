/** The text rule for rendered fields (issue 15, item 6): what is refused and what passes. */
import { describe, expect, it } from 'vitest';
import { KeyUsernameSchema } from '../../../../shared/crypto/key-file-schema.js';
import {
  displayNameSchema,
  displayTextSchema,
  isSafeMultiLineText,
  isSafeSingleLineText,
} from '../../../../shared/protocol/text.js';

const REFUSED = [
  '\u0000',
  '\u0007',
  '\u001B',
  '\u007F',
  '\u0085',
  '\u009B',
  '\u061C',
  '\u200E',
  '\u200F',
  '\u2028',
  '\u2029',
  '\u202A',
  '\u202D',
  '\u202E',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\uFEFF',
];

describe('text rule for rendered fields', () => {
  it('refuses every control, bidi formatting and separator character in a single-line name', () => {
    for (const character of REFUSED) {
      expect(isSafeSingleLineText(`a${character}b`), character.codePointAt(0)?.toString(16)).toBe(
        false,
      );
    }
    expect(isSafeSingleLineText('a\nb')).toBe(false);
    expect(isSafeSingleLineText('a\tb')).toBe(false);
  });

  it('keeps letters of every script, emoji and joiners', () => {
    for (const name of ['Ghost42', 'Łódź', 'שלום', 'مرحبا', '東京', '👩‍💻 ops', 'a\u200Db']) {
      expect(isSafeSingleLineText(name), name).toBe(true);
    }
  });

  it('lets multi-line text keep line feeds and tabs, nothing else', () => {
    expect(isSafeMultiLineText('line one\n\tline two')).toBe(true);
    expect(isSafeMultiLineText('line one\r\nline two')).toBe(false);
    expect(isSafeMultiLineText('evil\u202Etxt')).toBe(false);
  });

  it('names the field in the message, never the input', () => {
    const result = displayNameSchema({ label: 'name', max: 64 }).safeParse('x\u202Esecret');
    expect(result.success).toBe(false);
    const message = result.error?.issues[0]?.message ?? '';
    expect(message).toBe('name must not contain control or bidirectional formatting characters');
    expect(message).not.toContain('secret');
    expect(displayTextSchema({ label: 'reason', max: 10 }).safeParse('a\u0000').success).toBe(
      false,
    );
  });

  it('applies to key usernames (keygen and registration)', () => {
    expect(KeyUsernameSchema.safeParse('alice').success).toBe(true);
    expect(KeyUsernameSchema.safeParse('alice\u202Eecila').success).toBe(false);
    expect(KeyUsernameSchema.safeParse('alice\u0085').success).toBe(false);
  });
});
