/**
 * Deterministic JSON: the byte string that signatures are computed over. Two parties holding the
 * same data produce the same text, whatever order their objects' keys were built in.
 *
 * Rules (a subset of RFC 8785, JSON Canonicalization Scheme, sufficient for our data):
 * - object keys sorted by UTF-16 code units (JavaScript's default sort, as RFC 8785 §3.2.3);
 * - no whitespace; arrays keep their order;
 * - strings and numbers as `JSON.stringify` writes them (the ECMAScript forms RFC 8785 adopts);
 * - object properties whose value is `undefined` are left out, as `JSON.stringify` does.
 *
 * Example: `{ b: [2, 1], a: { d: null, c: 'x' } }` → `{"a":{"c":"x","d":null},"b":[2,1]}`
 */

/**
 * The canonical JSON text of `value`.
 * @throws TypeError for what has no single JSON form: non-finite numbers, `undefined` in an array
 * or at the top, bigint, functions, symbols, cycles, and objects other than plain objects and
 * arrays (a `Date` or `Uint8Array` must be converted to its wire form first).
 */
export function canonicalJson(value: unknown): string {
  return write(value, new Set());
}

function write(value: unknown, ancestors: Set<object>): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError('Canonical JSON has no non-finite numbers');
      return JSON.stringify(value);
    case 'object':
      return writeContainer(value, ancestors);
    default:
      throw new TypeError(`Canonical JSON cannot encode a value of type ${typeof value}`);
  }
}

function writeContainer(value: object, ancestors: Set<object>): string {
  if (ancestors.has(value)) throw new TypeError('Canonical JSON cannot encode a cycle');
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      // Elements are read by index so that holes count as `undefined` and are refused.
      const items: string[] = [];
      for (let index = 0; index < value.length; index++) {
        const item: unknown = value[index];
        if (item === undefined) throw new TypeError('Canonical JSON has no undefined in arrays');
        items.push(write(item, ancestors));
      }
      return `[${items.join(',')}]`;
    }
    const prototype: unknown = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) {
      throw new TypeError('Canonical JSON encodes only plain objects and arrays');
    }
    const members: string[] = [];
    const entries: [string, unknown][] = Object.entries(value);
    entries.sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
    for (const [key, member] of entries) {
      if (member === undefined) continue;
      members.push(`${JSON.stringify(key)}:${write(member, ancestors)}`);
    }
    return `{${members.join(',')}}`;
  } finally {
    ancestors.delete(value);
  }
}
