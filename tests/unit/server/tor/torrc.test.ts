/** The torrc writer and the bridge rules: loopback only, DisableNetwork 1, no injected option. */
import { describe, expect, it } from 'vitest';
import {
  detectPowSupport,
  powSupportFromModules,
} from '../../../../server/features/tor/tor-capabilities.js';
import {
  buildTorrc,
  assertSafeLine,
  ONION_DOS_DEFENSES,
} from '../../../../server/features/tor/torrc.js';
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

describe("the onion service's flood defences", () => {
  it('turns on the intro-point rate limit and the per-circuit stream cap for the service', () => {
    const text = buildTorrc(base);
    const lines = text.split('\n');
    const service = lines.indexOf('HiddenServiceDir /srv/sc/tor/hidden_service');
    for (const line of [
      'HiddenServiceEnableIntroDoSDefense 1',
      `HiddenServiceEnableIntroDoSRatePerSec ${ONION_DOS_DEFENSES.introRatePerSec}`,
      `HiddenServiceEnableIntroDoSBurstPerSec ${ONION_DOS_DEFENSES.introBurstPerSec}`,
      `HiddenServiceMaxStreams ${ONION_DOS_DEFENSES.maxStreamsPerCircuit}`,
      'HiddenServiceMaxStreamsCloseCircuit 1',
    ]) {
      // After the HiddenServiceDir they belong to.
      expect(lines.indexOf(line), line).toBeGreaterThan(service);
    }
    expect(text).not.toMatch(/PoW/);
  });

  it('adds proof of work only when the installed tor has it', () => {
    const text = buildTorrc({ ...base, powDefenses: true });
    expect(text).toMatch(/^HiddenServicePoWDefensesEnabled 1$/m);
    expect(text).toMatch(
      new RegExp(`^HiddenServicePoWQueueRate ${ONION_DOS_DEFENSES.powQueueRate}$`, 'm'),
    );
    expect(text).toMatch(
      new RegExp(`^HiddenServicePoWQueueBurst ${ONION_DOS_DEFENSES.powQueueBurst}$`, 'm'),
    );
  });

  it("reads proof-of-work support from tor's module list, and asks each binary once", async () => {
    expect(powSupportFromModules('relay: yes\ndirauth: yes\ndircache: yes\npow: yes\n')).toEqual({
      supported: true,
    });
    expect(powSupportFromModules('relay: yes\npow: no\n')).toMatchObject({ supported: false });
    expect(powSupportFromModules('relay: yes\ndirauth: yes\n')).toMatchObject({
      supported: false,
      reason: expect.stringContaining('0.4.8'),
    });
    let asked = 0;
    const run = async () => {
      asked += 1;
      return 'pow: yes\n';
    };
    const bin = `/opt/tor-${Math.random()}`;
    expect(await detectPowSupport(bin, run)).toEqual({ supported: true });
    expect(await detectPowSupport(bin, run)).toEqual({ supported: true });
    expect(asked).toBe(1);
    const failing = async () => {
      throw new Error('spawn ENOENT');
    };
    expect(await detectPowSupport(`/opt/missing-${Math.random()}`, failing)).toMatchObject({
      supported: false,
      reason: expect.stringContaining('--list-modules failed'),
    });
  });
});
