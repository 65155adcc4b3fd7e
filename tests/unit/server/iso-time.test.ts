import { describe, expect, it } from 'vitest';
import { IsoTimeFormatter } from '../../../server/features/messages/iso-time.js';

describe('IsoTimeFormatter', () => {
  it('writes exactly what Date#toISOString writes', () => {
    const formatter = new IsoTimeFormatter();
    const start = Date.UTC(2026, 10, 25, 23, 58, 59, 990);
    // Through minute, hour, day, month and year boundaries, one millisecond at a time and in steps.
    const times = [
      ...Array.from({ length: 3_000 }, (_, i) => start + i),
      ...Array.from({ length: 2_000 }, (_, i) => Date.UTC(2026, 11, 31, 23, 59, 0) + i * 37),
      0,
      -1,
      -0.5,
      -1.5,
      1.999,
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      Date.UTC(1, 0, 1),
    ];
    for (const time of times) expect(formatter.format(time)).toBe(new Date(time).toISOString());
  });

  it('leaves years outside 0000–9999 to Date, and throws as Date does for invalid times', () => {
    const formatter = new IsoTimeFormatter();
    const far = Date.UTC(10_000, 0, 1, 0, 0, 1, 5);
    expect(formatter.format(far)).toBe(new Date(far).toISOString());
    expect(() => formatter.format(Number.NaN)).toThrow(RangeError);
    expect(() => formatter.format(Infinity)).toThrow(RangeError);
  });
});
