/**
 * The real tor binary, managed by the real server, inside a network namespace that has only
 * loopback: tor can open its ports and write the onion hostname but can reach nothing, and the
 * torrc keeps `DisableNetwork 1`. Where the namespace cannot be made (no root) or tor is not
 * installed, the test says so and is skipped; CI has both (.ci/run installs tor).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ONION_ADDRESS_PATTERN } from '../../../shared/protocol/http/tor.js';
import { namespaceProblem, runInNamespace, torBinaryPath } from '../../support/tor/namespace.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the test walks JSON answers it asserts on field by field
type JsonObject = Record<string, any>;

const problem = namespaceProblem();
const torBin = torBinaryPath();
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sc-tor-'));

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('tor daemon in a loopback-only namespace', () => {
  it('starts tor, publishes a v3 onion address, keeps it across restart and crash, and stops', async (context) => {
    // Outside CI a machine without root or tor leaves this test out and says why; under CI (which
    // has root and installs tor) the same reason is a failure, so a green run never hides it.
    const leaveOut = (reason: string) => {
      if (process.env.CI) throw new Error(`required under CI: ${reason}`);
      context.skip(reason);
    };
    if (problem) leaveOut(`no loopback-only network namespace here: ${problem}`);
    if (!torBin) leaveOut('tor is not installed (apt-get install tor)');
    const run = await runInNamespace(
      'tests/integration/tor/tor-daemon.scenario.ts',
      { SCENARIO_DATA_DIR: dataDir, SCENARIO_TOR_BIN: torBin! },
      120_000,
    );
    const line = run.stdout.split('\n').find((text) => text.startsWith('RESULT '));
    expect(line, `${run.stdout}\n${run.stderr}`).toBeDefined();
    const result = JSON.parse(line!.slice('RESULT '.length)) as JsonObject;
    expect(result.error).toBeUndefined();
    // Only loopback in the namespace.
    expect(result.interfaces).toBe(1);

    expect(result.before).toMatchObject({ running: false, state: 'stopped', onionAddress: null });
    expect(result.start).toEqual({ status: 200, body: expect.objectContaining({ success: true }) });
    const onion = result.afterStart.onionAddress as string;
    expect(onion).toMatch(ONION_ADDRESS_PATTERN);
    expect(onion).toHaveLength(56 + '.onion'.length);
    expect(result.hostnameFile.trim()).toBe(onion);
    expect(result.afterStart).toMatchObject({
      running: true,
      controlPortOpen: true,
      hiddenServiceReady: true,
      state: 'disconnected',
      connected: false,
      // tor opens no SOCKS listener while DisableNetwork is 1.
      socksPortOpen: false,
    });
    expect(result.afterStart.version).toMatch(/^0\.\d/);
    // The onion service's self-test: no circuit with DisableNetwork 1, so never run, never true.
    expect(result.afterSelfTestRounds).toMatchObject({
      connected: false,
      hiddenServiceReachable: false,
      hiddenServiceCheckedAt: null,
    });
    expect(result.manualTest).toEqual({
      status: 200,
      body: expect.objectContaining({
        success: false,
        message: 'Tor is disconnected: connect first to test the onion service',
      }),
    });
    // A visitor sees the spec 000 fields only.
    expect(Object.keys(result.publicStatus).sort()).toEqual(
      [
        'bandwidth',
        'bootstrapProgress',
        'circuits',
        'connected',
        'hiddenServiceReachable',
        'onionAddress',
        'state',
      ].sort(),
    );
    expect((result.logs.logs as string[]).some((text) => text.includes('Bootstrapped 0%'))).toBe(
      true,
    );

    // The generated torrc: loopback listeners only, DisableNetwork 1, exit policy reject all.
    const torrc = result.torrc as string;
    expect(torrc).toMatch(/^DisableNetwork 1$/m);
    expect(torrc).toMatch(/^ExitPolicy reject \*:\*$/m);
    expect(torrc).toMatch(/^CookieAuthentication 1$/m);
    expect(torrc).toMatch(/^HiddenServiceExportCircuitID haproxy$/m);
    const listeners = torrc.split('\n').filter((text) => /^(\w+Port|\w+Listen\w*) /.test(text));
    for (const listener of listeners) {
      expect(listener).toMatch(
        /^(SocksPort 127\.0\.0\.1:\d+|ControlPort 127\.0\.0\.1:\d+|ORPort 0|DirPort 0|HiddenServicePort 80 127\.0\.0\.1:\d+)$/,
      );
    }

    expect(result.restart.body.success).toBe(true);
    expect(result.afterRestart).toMatchObject({ running: true, onionAddress: onion });
    expect(result.afterCrash).toMatchObject({
      running: true,
      hiddenServiceReady: true,
      onionAddress: onion,
    });

    expect(result.stop.body.success).toBe(true);
    expect(result.afterStop).toMatchObject({ running: false, controlPortOpen: false, uptime: 0 });
    // The onion key stays on disk: the address is still reported while tor is stopped.
    expect(result.afterStop.onionAddress).toBe(onion);
    expect(result.torProcessesAfterStop).toBe(0);
  }, 150_000);
});
