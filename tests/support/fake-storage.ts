/** A Web Storage stand-in (localStorage, sessionStorage) for unit tests, which can be told to refuse. */
export function fakeStorage(options: { refuse?: boolean } = {}) {
  const entries = new Map<string, string>();
  return {
    entries,
    getItem: (key: string) => {
      if (options.refuse) throw new Error('SecurityError');
      return entries.get(key) ?? null;
    },
    setItem: (key: string, value: string) => {
      if (options.refuse) throw new Error('QuotaExceededError');
      entries.set(key, value);
    },
    removeItem: (key: string) => {
      entries.delete(key);
    },
  };
}
