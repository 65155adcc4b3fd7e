/** Tables and checks of the logins scenario (issue 22, targets 1 and 2). */
import type { ChatLoadResult } from '../load/chat-load.js';
import type { LoginRunResult } from '../load/login-protocol.js';
import type { MlDsaCost } from '../load/ml-dsa-cost.js';
import { OTHER_LOAD_LIMIT } from '../context.js';
import { fixed, percent, times, type Check, type ScenarioReport } from '../report.js';
import { ratio, type Distribution } from '../stats.js';
import type { ChatRun } from './logins.js';

export interface LoginFigures {
  settings: {
    keys: number;
    logins: number;
    concurrency: number;
    serverBoundConcurrency: number;
    rounds: number;
    chat: { members: number; senders: number; rate: number; windowMs: number };
    steady: { rate: number; durationMs: number; afterMs: number };
    burst: { logins: number; afterMs: number };
  };
  mlDsa: MlDsaCost;
  setup: { keygenMs: number; registerMs: number };
  whole: { result: LoginRunResult; serverCpuMs: number };
  challengesOnly: { result: LoginRunResult; serverCpuMs: number };
  verifyOnly: { result: LoginRunResult; serverCpuMs: number };
  rounds: { quiet: ChatRun; steady: ChatRun; burst: ChatRun }[];
}

/** Target 1: key logins per second per core. */
const LOGINS_PER_CORE_TARGET = 1500;
/** Target 2: chat p99 while logins arrive, against chat p99 without. */
const P99_TARGET = 1.5;

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

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

interface RoundFigures {
  quietP99: number;
  steadyLatency: Distribution;
  challengePhase: Distribution;
  signingPhase: Distribution;
  verifyPhase: Distribution;
  burstWorstP99: number;
  steadyRatio: number;
  burstRatio: number;
}

function roundFigures(round: LoginFigures['rounds'][number]): RoundFigures {
  const quietP99 = round.quiet.chat.latency.p99;
  const steady = round.steady.steady!;
  const burst = round.burst.burst!;
  const steadyLatency = round.steady.chat.latencyBetween(steady.start, steady.end);
  const challengePhase = round.burst.chat.latencyBetween(burst.start, burst.challengesDone);
  const signingPhase = round.burst.chat.latencyBetween(burst.challengesDone, burst.verifyStart);
  const verifyPhase = round.burst.chat.latencyBetween(burst.verifyStart, burst.end);
  const burstWorstP99 = Math.max(challengePhase.p99, verifyPhase.p99);
  return {
    quietP99,
    steadyLatency,
    challengePhase,
    signingPhase,
    verifyPhase,
    burstWorstP99,
    steadyRatio: ratio(steadyLatency.p99, quietP99),
    burstRatio: ratio(burstWorstP99, quietP99),
  };
}

export function loginReport(figures: LoginFigures): ScenarioReport {
  const { settings, mlDsa, whole, challengesOnly, verifyOnly, rounds } = figures;
  const wholePerSecond = (whole.result.ok * 1000) / whole.result.wallMs;
  const verifyPerSecond = (verifyOnly.result.ok * 1000) / verifyOnly.result.wallMs;
  const serverMsPerLogin = ratio(whole.serverCpuMs, whole.result.ok);
  const serverMsPerVerify = ratio(verifyOnly.serverCpuMs, verifyOnly.result.ok);
  const serverMsPerChallenge = ratio(
    challengesOnly.serverCpuMs,
    challengesOnly.result.challengeMs.count,
  );
  // Target 1: the server's CPU for one challenge and one verification, both at saturation.
  const serverMsPerSaturatedLogin = serverMsPerChallenge + serverMsPerVerify;
  const loginsPerCore = 1000 / serverMsPerSaturatedLogin;
  const perRound = rounds.map(roundFigures);
  const steadyRatio = median(perRound.map((round) => round.steadyRatio));
  const burstRatio = median(perRound.map((round) => round.burstRatio));
  const steadyOk = rounds.reduce((sum, round) => sum + round.steady.steady!.ok, 0);
  const steadyExpected =
    rounds.length * Math.round((settings.steady.rate * settings.steady.durationMs) / 1000);
  const burstOk = rounds.reduce((sum, round) => sum + round.burst.burst!.ok, 0);
  const burstBusy = rounds.reduce((sum, round) => sum + round.burst.burst!.busy, 0);
  const chatRuns = rounds.flatMap((round) => [round.quiet, round.steady, round.burst]);
  const delivered = chatRuns.reduce((sum, run) => sum + run.chat.delivered, 0);
  const expected = chatRuns.reduce((sum, run) => sum + run.chat.expectedDeliveries, 0);
  const botChallenges = chatRuns.reduce((sum, run) => sum + run.chat.botChallenges, 0);
  const ratioList = (pick: (round: RoundFigures) => number) =>
    perRound.map((round) => times(pick(round))).join(', ');

  const checks: Check[] = [
    {
      scenario: 'logins',
      name: 'key logins per second per core (challenge + verify, server CPU)',
      target: `≥ ${LOGINS_PER_CORE_TARGET}`,
      actual: `${fixed(loginsPerCore, 0)} (${fixed(serverMsPerChallenge, 3)} + ${fixed(serverMsPerVerify, 3)} ms CPU per challenge + verify)`,
      pass: loginsPerCore >= LOGINS_PER_CORE_TARGET,
    },
    {
      scenario: 'logins',
      name: `chat p99 while ${settings.steady.rate} logins/s arrive (median of ${rounds.length})`,
      target: `≤ ${P99_TARGET.toFixed(2)}× without`,
      actual: `${times(steadyRatio)} (rounds: ${ratioList((round) => round.steadyRatio)})`,
      pass: steadyRatio <= P99_TARGET,
    },
    {
      scenario: 'logins',
      name: `chat p99 during a burst of ${settings.burst.logins} logins (median of ${rounds.length})`,
      target: `≤ ${P99_TARGET.toFixed(2)}× without`,
      actual: `${times(burstRatio)} (rounds: ${ratioList((round) => round.burstRatio)})`,
      pass: burstRatio <= P99_TARGET,
    },
    {
      scenario: 'logins',
      name: 'every login ends with a session (503s retried after Retry-After)',
      target: `${steadyExpected + rounds.length * settings.burst.logins} sessions`,
      actual: `${steadyOk} steady + ${burstOk} burst ok; ${burstBusy} burst 503(s) retried`,
      pass: steadyOk === steadyExpected && burstOk === rounds.length * settings.burst.logins,
    },
    {
      scenario: 'logins',
      name: 'chat during the logins: every message delivered',
      target: '100%, no sender challenged as a bot',
      actual: `${delivered}/${expected}, ${botChallenges} bot challenge(s)`,
      pass: delivered === expected && botChallenges === 0,
    },
  ];

  const chatRows: string[][] = [];
  rounds.forEach((round, index) => {
    const figuresOfRound = perRound[index]!;
    const prefix = rounds.length > 1 ? `#${index + 1} ` : '';
    chatRows.push(
      latencyRow(
        `${prefix}no logins: whole window`,
        round.quiet.chat.latency,
        delivery(round.quiet.chat),
      ),
      latencyRow(
        `${prefix}steady ${settings.steady.rate}/s: whole window`,
        round.steady.chat.latency,
        delivery(round.steady.chat),
      ),
      latencyRow(`${prefix}  while the logins arrive`, figuresOfRound.steadyLatency),
      latencyRow(
        `${prefix}burst of ${settings.burst.logins}: whole window`,
        round.burst.chat.latency,
        delivery(round.burst.chat),
      ),
      latencyRow(`${prefix}  during the challenge burst`, figuresOfRound.challengePhase),
      latencyRow(`${prefix}  while the driver signs`, figuresOfRound.signingPhase),
      latencyRow(`${prefix}  during the verify burst`, figuresOfRound.verifyPhase),
      [
        `${prefix}ratio p99 steady / burst (worst phase) to none`,
        '',
        '',
        '',
        '',
        `${times(figuresOfRound.steadyRatio)} / ${times(figuresOfRound.burstRatio)}`,
        '',
      ],
    );
  });

  const otherNotes = rounds.flatMap((round, index) =>
    (['quiet', 'steady', 'burst'] as const)
      .filter((run) => round[run].otherCpuShare > OTHER_LOAD_LIMIT)
      .map(
        (run) =>
          `round ${index + 1}: other processes used ${percent(round[run].otherCpuShare, 0)} of a core during the ${run} window; its figures are disturbed`,
      ),
  );
  const failures = rounds.flatMap((round) => [
    ...round.steady.steady!.failures,
    ...round.burst.burst!.failures,
  ]);
  return {
    scenario: 'logins',
    tables: [
      {
        title: 'ML-DSA-65 verification in-process (CPU time, one core)',
        columns: ['implementation', 'runs', 'µs per verify', 'verify/s per core'],
        rows: mlDsa.verify.map((cost) => [
          cost.implementation,
          String(cost.iterations),
          fixed(cost.meanUs, 1),
          fixed(cost.perSecond, 0),
        ]),
      },
      {
        title: `Login cost (${settings.keys} keys; whole logins ${settings.concurrency} at a time)`,
        columns: ['measure', 'value'],
        rows: [
          [
            'ML-DSA-65 sign (@noble, as in the browser), in-process mean',
            `${fixed(mlDsa.signMeanUs, 0)} µs (${mlDsa.signIterations} runs)`,
          ],
          [
            'whole logins (challenge → sign → verify)',
            `${fixed(wholePerSecond, 1)}/s, ${whole.result.ok} ok, ${whole.result.failed} failed, ${whole.result.busy} 503`,
          ],
          [
            '  signing in the driver (liboqs ML-DSA + OpenSSL ECDSA)',
            `${fixed(whole.result.signMs.mean, 2)} ms mean`,
          ],
          [
            '  challenge / verify round trip p50',
            `${fixed(whole.result.challengeMs.p50, 2)} / ${fixed(whole.result.verifyMs.p50, 2)} ms`,
          ],
          ['  server CPU per whole login at this rate', `${fixed(serverMsPerLogin, 3)} ms`],
          [
            `challenges (server-bound, ${settings.serverBoundConcurrency} at a time)`,
            `${challengesOnly.result.challengeMs.count} answered`,
          ],
          ['  server CPU per challenge', `${fixed(serverMsPerChallenge, 3)} ms`],
          [
            `pre-signed verifications (server-bound, ${settings.serverBoundConcurrency} at a time)`,
            `${fixed(verifyPerSecond, 1)}/s, ${verifyOnly.result.ok} ok, ${verifyOnly.result.failed} failed`,
          ],
          ['  server CPU per verification', `${fixed(serverMsPerVerify, 3)} ms`],
          [
            'logins per second per core (1000 / CPU ms of challenge + verification)',
            fixed(loginsPerCore, 0),
          ],
          [
            '  verify round trip p50 / p99',
            `${fixed(verifyOnly.result.verifyMs.p50, 2)} / ${fixed(verifyOnly.result.verifyMs.p99, 2)} ms`,
          ],
        ],
      },
      {
        title:
          `Chat latency, 1 room × ${settings.chat.members}, ${settings.chat.senders} senders × ` +
          `${settings.chat.rate} msg/s, ${settings.chat.windowMs / 1000} s windows, ${rounds.length} round(s); ` +
          `steady: ${settings.steady.rate} whole logins/s for ${settings.steady.durationMs / 1000} s from ` +
          `${settings.steady.afterMs / 1000} s; burst: ${settings.burst.logins} challenges at once from ` +
          `${settings.burst.afterMs / 1000} s, then ${settings.burst.logins} verifies at once`,
        columns: ['messages sent', 'delivered', 'samples', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms'],
        rows: chatRows,
      },
    ],
    checks,
    notes: [
      'signing runs in a separate driver process (generator CPU, 10 nice steps lower), so it does not delay the chat receivers',
      ...otherNotes,
      ...(botChallenges > 0
        ? [`${botChallenges} chat sender(s) were challenged as bots and could not send afterwards`]
        : []),
      ...(failures.length > 0 ? [`login failures: ${failures.slice(0, 5).join('; ')}`] : []),
      ...rounds.flatMap((round, index) =>
        round.burst.burst!.end > round.burst.chat.windowStartedAt + round.burst.chat.windowMs
          ? [
              `round ${index + 1}: the login burst ended after the window; its tail is not in the figures`,
            ]
          : [],
      ),
    ],
    data: {
      settings,
      mlDsa,
      setup: figures.setup,
      whole,
      challengesOnly,
      verifyOnly,
      rounds: rounds.map((round, index) => ({
        quiet: {
          ...round.quiet,
          chat: { ...round.quiet.chat, latencyBetween: undefined, latencySamples: undefined },
        },
        steady: {
          ...round.steady,
          chat: { ...round.steady.chat, latencyBetween: undefined, latencySamples: undefined },
        },
        burst: {
          ...round.burst,
          chat: { ...round.burst.chat, latencyBetween: undefined, latencySamples: undefined },
        },
        derived: perRound[index],
      })),
      derived: {
        wholePerSecond,
        verifyPerSecond,
        serverMsPerLogin,
        serverMsPerVerify,
        serverMsPerChallenge,
        loginsPerCore,
        steadyRatio,
        burstRatio,
      },
    },
  };
}
