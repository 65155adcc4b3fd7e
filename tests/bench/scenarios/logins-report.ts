/** Tables and checks of the logins scenario. */
import type { ChatLoadResult } from '../load/chat-load.js';
import type { LoginRunResult } from '../load/login-protocol.js';
import type { MlDsaCost } from '../load/ml-dsa-cost.js';
import { OTHER_LOAD_LIMIT } from '../context.js';
import { fixed, percent, times, type Check, type ScenarioReport } from '../report.js';
import { ratio, type Distribution } from '../stats.js';

export interface LoginFigures {
  settings: {
    keys: number;
    logins: number;
    concurrency: number;
    chat: { members: number; senders: number; rate: number; windowMs: number };
    burst: { logins: number; afterMs: number };
  };
  mlDsa: MlDsaCost;
  setup: { keygenMs: number; registerMs: number };
  whole: { result: LoginRunResult; serverCpuMs: number };
  verifyOnly: { result: LoginRunResult; serverCpuMs: number };
  quiet: ChatLoadResult;
  busy: ChatLoadResult;
  burst: {
    start: number;
    challengesDone: number;
    verifyStart: number;
    end: number;
    ok: number;
    failed: number;
    failures: string[];
  };
  otherCpuShare: { quiet: number; busy: number };
}

/** No target was set for logins; the fan-out p99 rule (≤ 1.5×) is borrowed as a guide. */
const P99_GUIDE = 1.5;

function latencyRow(label: string, latency: Distribution, delivery = ''): string[] {
  return [
    label,
    delivery,
    String(latency.count),
    fixed(latency.p50, 2),
    fixed(latency.p95, 2),
    fixed(latency.p99, 2),
    fixed(latency.max, 1),
  ];
}

function delivery(chat: ChatLoadResult): string {
  return `${chat.delivered}/${chat.expectedDeliveries}`;
}

export function loginReport(figures: LoginFigures): ScenarioReport {
  const { settings, mlDsa, whole, verifyOnly, quiet, busy, burst } = figures;
  const wholePerSecond = (whole.result.ok * 1000) / whole.result.wallMs;
  const verifyPerSecond = (verifyOnly.result.ok * 1000) / verifyOnly.result.wallMs;
  const serverMsPerLogin = ratio(whole.serverCpuMs, whole.result.ok);
  const serverMsPerVerify = ratio(verifyOnly.serverCpuMs, verifyOnly.result.ok);
  const challengePhase = busy.latencyBetween(burst.start, burst.challengesDone);
  const signingPhase = busy.latencyBetween(burst.challengesDone, burst.verifyStart);
  const verifyPhase = busy.latencyBetween(burst.verifyStart, burst.end);
  const duringLogins = busy.latencyBetween(burst.start, burst.end);
  const worstPhaseP99 = Math.max(challengePhase.p99, verifyPhase.p99);
  const burstRatio = ratio(worstPhaseP99, quiet.latency.p99);
  const windowRatio = ratio(busy.latency.p99, quiet.latency.p99);
  const at = (time: number) => fixed((time - busy.windowStartedAt) / 1000, 2);

  const checks: Check[] = [
    {
      scenario: 'logins',
      name: `${settings.burst.logins} logins at once all succeed`,
      target: `${settings.burst.logins} sessions`,
      actual: `${burst.ok} ok, ${burst.failed} failed`,
      pass: burst.ok === settings.burst.logins,
    },
    {
      scenario: 'logins',
      name: 'chat during the logins: every message delivered',
      target: '100%, no sender challenged as a bot',
      actual: `${busy.delivered}/${busy.expectedDeliveries}, ${busy.botChallenges} bot challenge(s)`,
      pass: busy.delivered === busy.expectedDeliveries && busy.botChallenges === 0,
    },
    {
      scenario: 'logins',
      name: 'chat p99 while logins arrive',
      target: `≤ ${P99_GUIDE.toFixed(2)}× without (guide)`,
      actual: `${times(burstRatio)} (${fixed(worstPhaseP99, 2)} vs ${fixed(quiet.latency.p99, 2)} ms)`,
      pass: burstRatio <= P99_GUIDE,
    },
    {
      scenario: 'logins',
      name: 'server-side login capacity (one core)',
      target: 'none set (informational)',
      actual: `${fixed(1000 / serverMsPerLogin, 0)} logins/s (${fixed(serverMsPerLogin, 2)} ms CPU each)`,
      pass: null,
    },
  ];
  return {
    scenario: 'logins',
    tables: [
      {
        title: `Login cost (${settings.keys} keys; whole logins and verifications ${settings.concurrency} at a time)`,
        columns: ['measure', 'value'],
        rows: [
          [
            'ML-DSA-65 verify, in-process mean',
            `${fixed(mlDsa.verifyMeanUs, 0)} µs (${mlDsa.verifyIterations} runs)`,
          ],
          [
            'ML-DSA-65 sign, in-process mean',
            `${fixed(mlDsa.signMeanUs, 0)} µs (${mlDsa.signIterations} runs)`,
          ],
          [
            'whole logins (challenge → sign → verify)',
            `${fixed(wholePerSecond, 1)}/s, ${whole.result.ok} ok, ${whole.result.failed} failed`,
          ],
          [
            '  signing in the load generator (ML-DSA + ECDSA)',
            `${fixed(whole.result.signMs.mean, 2)} ms mean`,
          ],
          [
            '  challenge / verify round trip p50',
            `${fixed(whole.result.challengeMs.p50, 2)} / ${fixed(whole.result.verifyMs.p50, 2)} ms`,
          ],
          ['  server CPU per whole login', `${fixed(serverMsPerLogin, 2)} ms`],
          [
            'pre-signed verifications (server-bound)',
            `${fixed(verifyPerSecond, 1)}/s, ${verifyOnly.result.ok} ok, ${verifyOnly.result.failed} failed`,
          ],
          ['  server CPU per verification', `${fixed(serverMsPerVerify, 2)} ms`],
          [
            '  verify round trip p50 / p99',
            `${fixed(verifyOnly.result.verifyMs.p50, 2)} / ${fixed(verifyOnly.result.verifyMs.p99, 2)} ms`,
          ],
        ],
      },
      {
        title:
          `Chat latency, 1 room × ${settings.chat.members}, ${settings.chat.senders} senders × ` +
          `${settings.chat.rate} msg/s, ${settings.chat.windowMs / 1000} s window; ` +
          `${settings.burst.logins} logins from ${at(burst.start)} s: challenges answered by ` +
          `${at(burst.challengesDone)} s, verifies sent at ${at(burst.verifyStart)} s, done at ${at(burst.end)} s`,
        columns: ['messages sent', 'delivered', 'samples', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms'],
        rows: [
          latencyRow('no logins: whole window', quiet.latency, delivery(quiet)),
          latencyRow('with logins: whole window', busy.latency, delivery(busy)),
          latencyRow('with logins: during the logins', duringLogins),
          latencyRow('  during the challenge burst', challengePhase),
          latencyRow('  while the driver signs (no login traffic)', signingPhase),
          latencyRow('  during the verify burst', verifyPhase),
          ['ratio p99, worst burst / no logins', '', '', '', '', times(burstRatio), ''],
          ['ratio p99, whole windows', '', '', '', '', times(windowRatio), ''],
        ],
      },
    ],
    checks,
    notes: [
      'signing runs in a separate driver process (generator CPU, 10 nice steps lower), so it does not delay the chat receivers',
      ...(['quiet', 'busy'] as const)
        .filter((run) => figures.otherCpuShare[run] > OTHER_LOAD_LIMIT)
        .map(
          (run) =>
            `other processes used ${percent(figures.otherCpuShare[run], 0)} of a core during the ${run === 'quiet' ? 'no-login' : 'login'} window; its figures are disturbed`,
        ),
      ...(['quiet', 'busy'] as const)
        .filter((run) => figures[run].botChallenges > 0)
        .map(
          (run) =>
            `${figures[run].botChallenges} chat sender(s) were challenged as bots during the ${run === 'quiet' ? 'no-login' : 'login'} window and could not send afterwards (${figures[run].errorFrames} refused frames)`,
        ),
      ...(burst.failures.length > 0 ? [`login failures: ${burst.failures.join('; ')}`] : []),
      ...(burst.end > busy.windowStartedAt + busy.windowMs
        ? ['the login burst ended after the measurement window; its tail is not in the figures']
        : []),
    ],
    data: {
      ...figures,
      quiet: { ...quiet, latencyBetween: undefined, latencySamples: undefined },
      busy: { ...busy, latencyBetween: undefined, latencySamples: undefined },
      derived: {
        wholePerSecond,
        verifyPerSecond,
        serverMsPerLogin,
        serverMsPerVerify,
        challengePhase,
        signingPhase,
        verifyPhase,
        duringLogins,
        burstRatio,
        windowRatio,
      },
    },
  };
}
