/**
 * The real tor accepts the torrc the server writes, flood defences included: `tor --verify-config`
 * reads the file as a start would and fails on any option it does not know or was built without
 * (proof of work is written only when `tor --list-modules` says `pow: yes`). tor runs in a
 * loopback-only network namespace and the torrc says `DisableNetwork 1`, as in the daemon test;
 * outside CI a machine without root or tor leaves the test out and says why.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectPowSupport } from '../../../server/features/tor/tor-capabilities.js';
import { buildTorrc } from '../../../server/features/tor/torrc.js';
import { namespaceProblem, torBinaryPath } from '../../support/tor/namespace.js';

const problem = namespaceProblem();
const torBin = torBinaryPath();
const dir = mkdtempSync(path.join(os.tmpdir(), 'sc-torrc-'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `tor --verify-config` on `torrc` in a namespace with only loopback. */
function verifyInNamespace(
  bin: string,
  torrc: string,
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const command = `ip link set lo up && exec "${bin}" --verify-config -f "${torrc}" --defaults-torrc /dev/null`;
    const child = spawn('unshare', ['-n', 'sh', '-c', command], {
      env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', HOME: dir },
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`tor --verify-config did not finish:\n${out}`));
    }, 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

describe('the torrc against the installed tor', () => {
  it('is accepted by tor --verify-config, with proof of work exactly when tor has it', async (context) => {
    const leaveOut = (reason: string) => {
      if (process.env.CI) throw new Error(`required under CI: ${reason}`);
      context.skip(reason);
    };
    if (problem) leaveOut(`no loopback-only network namespace here: ${problem}`);
    if (!torBin) leaveOut('tor is not installed (apt-get install tor)');
    const pow = await detectPowSupport(torBin!);
    const paths = {
      data: path.join(dir, 'data'),
      hiddenService: path.join(dir, 'hidden_service'),
    };
    for (const folder of Object.values(paths)) {
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      chmodSync(folder, 0o700);
    }
    const text = buildTorrc({
      dataDirectory: paths.data,
      hiddenServiceDir: paths.hiddenService,
      cookieFile: path.join(dir, 'control_auth_cookie'),
      socksPort: 19050,
      controlPort: 19051,
      serviceTarget: { host: '127.0.0.1', port: 15000 },
      virtualPort: 80,
      bridges: [],
      ownerPid: process.pid,
      powDefenses: pow.supported,
    });
    // Never a way out: the file tor reads keeps the network off.
    expect(text).toMatch(/^DisableNetwork 1$/m);
    expect(text).toMatch(/^HiddenServiceEnableIntroDoSDefense 1$/m);
    expect(text).toMatch(/^HiddenServiceMaxStreamsCloseCircuit 1$/m);
    expect(/^HiddenServicePoWDefensesEnabled 1$/m.test(text)).toBe(pow.supported);
    const torrc = path.join(dir, 'torrc');
    writeFileSync(torrc, text, { mode: 0o600 });

    const result = await verifyInNamespace(torBin!, torrc);
    expect(result.out).toMatch(/Configuration was valid/);
    expect(result.code, result.out).toBe(0);

    // The check can fail: an option this tor does not know is refused.
    const broken = path.join(dir, 'torrc-broken');
    writeFileSync(broken, `${text}HiddenServiceNoSuchDefence 1\n`, { mode: 0o600 });
    expect((await verifyInNamespace(torBin!, broken)).code).not.toBe(0);
  });
});
