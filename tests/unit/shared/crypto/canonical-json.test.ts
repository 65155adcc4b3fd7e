import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../../shared/crypto/canonical-json.js';

describe('canonicalJson', () => {
  it('sorts keys at every depth, keeps array order and writes no whitespace', () => {
    const value = { b: [3, 1, { z: true, y: null }], a: { d: 'x', c: -0.5 } };
    expect(canonicalJson(value)).toBe('{"a":{"c":-0.5,"d":"x"},"b":[3,1,{"y":null,"z":true}]}');
  });

  it('gives the same text whatever order the keys were inserted in', () => {
    expect(canonicalJson({ one: 1, two: 2 })).toBe(canonicalJson({ two: 2, one: 1 }));
  });

  it('orders keys by UTF-16 code units, as RFC 8785 does', () => {
    expect(canonicalJson({ é: 1, z: 2, Z: 3, '€': 4, '10': 5, '9': 6 })).toBe(
      '{"10":5,"9":6,"Z":3,"z":2,"é":1,"€":4}',
    );
  });

  it('escapes strings exactly as JSON.stringify does', () => {
    const text = 'quote " backslash \\ newline \n tab \t nul \u0000 emoji 🔐';
    expect(canonicalJson({ text })).toBe(`{"text":${JSON.stringify(text)}}`);
  });

  it('leaves out object members whose value is undefined', () => {
    expect(canonicalJson({ kept: 1, dropped: undefined })).toBe('{"kept":1}');
  });

  it.each([
    ['NaN', { value: Number.NaN }],
    ['Infinity', [Number.POSITIVE_INFINITY]],
    ['undefined in an array', [1, undefined]],
    ['an array hole', Object.assign(new Array<number>(3), { 0: 1, 2: 3 })],
    ['undefined at the top', undefined],
    ['a bigint', { value: 1n }],
    ['a function', { value: () => 1 }],
    ['a Date', { value: new Date(0) }],
    ['a Uint8Array', { value: Uint8Array.of(1) }],
  ])('refuses %s', (_name, value) => {
    expect(() => canonicalJson(value)).toThrow(TypeError);
  });

  it('refuses a cycle but accepts the same object twice side by side', () => {
    const shared = { x: 1 };
    expect(canonicalJson({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(TypeError);
  });
});
