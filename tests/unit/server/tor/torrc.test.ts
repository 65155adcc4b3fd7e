/** The torrc writer and the bridge rules: loopback only, DisableNetwork 1, no injected option. */
import { describe, expect, it } from 'vitest';
import { buildTorrc, assertSafeLine } from '../../../../server/features/tor/torrc.js';
import {
  isOnionAddress,
  parseBridgeImport,
  parseBridgeLine,
} from '../../../../shared/protocol/http/tor.js';
import { nextConnectingProgress } from '../../../../client/features/tor/tor-progress.js';

const FP = '0123456789ABCDEF0123456789ABCDEF01234567';
const base = {
  dataDirectory: '/srv/sc/tor/data',
  hiddenServiceDir: '/srv/sc/tor/hidden_service',
  cookieFile: '/srv/sc/tor/control_auth_cookie',
  socksPort: 9050,
  controlPort: 9051,
  serviceTarget: { host: '127.0.0.1', port: 5000 },
  virtualPort: 80,
  bridges: [],
  ownerPid: 1234,
  powDefenses: false,
};

describe('torrc', () => {
  it('listens on loopback only, starts with DisableNetwork 1 and rejects every exit', () => {
    const text = buildTorrc(base);
    expect(text).toMatch(/^SocksPort 127\.0\.0\.1:9050$/m);
    expect(text).toMatch(/^ControlPort 127\.0\.0\.1:9051$/m);
    expect(text).toMatch(/^CookieAuthentication 1$/m);
    expect(text).toMatch(/^DisableNetwork 1$/m);
    expect(text).toMatch(/^ExitPolicy reject \*:\*$/m);
    expect(text).toMatch(/^HiddenServicePort 80 127\.0\.0\.1:5000$/m);
    // Each onion stream names its circuit, so limits count onion visitors one by one.
    expect(text).toMatch(/^HiddenServiceExportCircuitID haproxy$/m);
    expect(text).not.toMatch(/UseBridges/);
  });

  it('refuses a non-loopback service target and unsafe paths', () => {
    expect(() =>
      buildTorrc({ ...base, serviceTarget: { host: '10.0.0.1', port: 5000 } }),
    ).toThrow();
    expect(() => buildTorrc({ ...base, dataDirectory: '/srv/x\nControlPort 0.0.0.0:1' })).toThrow();
    expect(() => assertSafeLine('Bridge obfs4 1.2.3.4:1 x\\')).toThrow();
  });

  it('writes bridges with their transports', () => {
    const bridges = [parseBridgeLine(`meek 192.0.2.1:80 ${FP} url=https://x.example/`)!];
    const text = buildTorrc({ ...base, bridges });
    expect(text).toContain(`Bridge meek_lite 192.0.2.1:80 ${FP} url=https://x.example/`);
    expect(text).toMatch(/^UseBridges 1$/m);
    expect(text).toMatch(/^ClientTransportPlugin obfs4,meek_lite exec \/usr\/bin\/obfs4proxy$/m);
  });
});

describe('bridge lines', () => {
  it('skips blank and # lines and counts the bad ones', () => {
    const result = parseBridgeImport(
      `# c\n\n  \nobfs4 192.0.2.1:443 ${FP}\nwebtunnel [2001:db8::1]:443 ${FP} url=https://w.example/p\nbad\nobfs4 192.0.2.1:99999 ${FP}\n`,
    );
    expect(result.bridges.map((bridge) => bridge.type)).toEqual(['obfs4', 'webtunnel']);
    expect(result.rejected).toBe(2);
  });

  it('refuses newlines, carriage returns, quotes, comments and continuations inside a line', () => {
    for (const line of [
      `obfs4 192.0.2.1:443 ${FP}\rControlPort 0.0.0.0:1`,
      `obfs4 192.0.2.1:443 ${FP} cert="x"`,
      `obfs4 192.0.2.1:443 ${FP} cert=x#y`,
      `obfs4 192.0.2.1:443 ${FP} cert=x\\`,
      `obfs4 192.0.2.1:443 ${FP} ExitPolicy`,
      `obfs4 256.0.0.1:443 ${FP}`,
    ]) {
      expect(parseBridgeLine(line), line).toBeNull();
    }
  });
});

describe('onion address and progress', () => {
  it('accepts 56 or 16 characters of a-z2-7 before .onion', () => {
    expect(isOnionAddress(`${'a'.repeat(56)}.onion`)).toBe(true);
    expect(isOnionAddress(`${'b'.repeat(16)}.onion`)).toBe(true);
    expect(isOnionAddress(`${'a'.repeat(55)}1.onion`)).toBe(false);
    expect(isOnionAddress(`${'A'.repeat(56)}.onion`)).toBe(false);
  });

  it('rises 10 % a step and holds at 90 %', () => {
    const steps = [0];
    for (let index = 0; index < 12; index += 1) steps.push(nextConnectingProgress(steps.at(-1)!));
    expect(steps.slice(0, 4)).toEqual([0, 10, 20, 30]);
    expect(steps.at(-1)).toBe(90);
  });
});
