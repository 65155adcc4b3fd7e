/**
 * Logins (issue 22, targets 1 and 2): K keys registered through the admin API, then
 *  - whole logins (challenge → sign → verify) at a fixed concurrency, signing in the driver child:
 *    the server's CPU per login gives logins per second per core;
 *  - server-bound verifications: challenges fetched and signed first, then only the verify calls
 *    are timed, so the figure is the server's;
 *  - the in-process cost of one ML-DSA-65 verification, with each implementation;
 *  - chat latency in a busy room without logins, with logins arriving at a steady rate, and with a
 *    burst of logins arriving at once (every challenge requested at once, signed as it comes — the
 *    driver stands for browsers that each sign on their own CPU — then every verify sent at once;
 *    verifies refused with 503 are sent again after Retry-After), in rounds;
 *  - the same rounds with the logins served by a process of their own: a second server on the
 *    same CPU under SCHED_IDLE, both sharing a throwaway PostgreSQL database and a Redis prefix
 *    (the many-process deployment of docs/operations.md with the two login routes sent to one
 *    process), the chat on the first.
 */
import { sleep, type BenchContext } from '../context.js';
import { closeAll, connectMany, type BenchClient } from '../load/clients.js';
import { runChatLoad, type ChatLoadResult } from '../load/chat-load.js';
import { LoginDriver } from '../load/login-client.js';
import {
  LoginRunResultSchema,
  SetupResultSchema,
  type LoginRunResult,
} from '../load/login-protocol.js';
import { measureMlDsaCost } from '../load/ml-dsa-cost.js';
import { CpuMeter, OtherLoadMeter, rssBytes } from '../process-stats.js';
import type { ScenarioReport } from '../report.js';
import type { RunningServer } from '../server-process.js';
import { ClusterResources, sharedState } from './cluster-setups.js';
import { loginReport, type LoginRound, type SplitFigures } from './logins-report.js';

interface LoginSettings {
  keys: number;
  logins: number;
  concurrency: number;
  /** Requests at once when measuring the server's own cost per login. */
  serverBoundConcurrency: number;
  mlDsaVerifyIterations: number;
  /** Rounds of the three chat windows (without, steady, burst). */
  rounds: number;
  steady: { rate: number; durationMs: number; afterMs: number };
  chat: {
    members: number;
    senders: number;
    rate: number;
    warmupMs: number;
    windowMs: number;
    drainMs: number;
  };
  burst: { logins: number; afterMs: number };
}

function settingsFor(isQuick: boolean): LoginSettings {
  return isQuick
    ? {
        keys: 2,
        logins: 6,
        concurrency: 3,
        serverBoundConcurrency: 3,
        mlDsaVerifyIterations: 50,
        rounds: 1,
        steady: { rate: 10, durationMs: 800, afterMs: 300 },
        chat: { members: 10, senders: 2, rate: 10, warmupMs: 300, windowMs: 1500, drainMs: 300 },
        burst: { logins: 10, afterMs: 300 },
      }
    : {
        keys: 50,
        logins: 1000,
        concurrency: 20,
        serverBoundConcurrency: 50,
        mlDsaVerifyIterations: 1000,
        rounds: 3,
        steady: { rate: 100, durationMs: 10_000, afterMs: 2000 },
        // 50 msg/s into the room from ten senders at 5 msg/s: at 10 msg/s, a stall of about a
        // second makes the abuse control see a burst and challenge honest senders as bots.
        chat: {
          members: 50,
          senders: 10,
          rate: 5,
          warmupMs: 2000,
          windowMs: 16_000,
          drainMs: 2000,
        },
        burst: { logins: 1000, afterMs: 2000 },
      };
}

/**
 * Runs one driver command while metering the server's CPU (every thread of its process), and how
 * much CPU other processes on the machine used meanwhile, as a share of one core.
 */
async function metered(
  server: RunningServer,
  driver: LoginDriver,
  run: () => Promise<LoginRunResult>,
) {
  const meter = new CpuMeter(server.pid);
  const other = new OtherLoadMeter([server.pid, process.pid, driver.pid]);
  const result = await run();
  return { result, serverCpuMs: meter.usedMs(), otherCpuShare: other.share() };
}

/** Epoch milliseconds (as the driver reports them) on this process's performance.now() clock. */
const local = (epochMs: number) => epochMs - performance.timeOrigin;

export interface BurstTimes {
  start: number;
  challengesDone: number;
  verifyStart: number;
  end: number;
  ok: number;
  /** 503 answers, each retried after Retry-After. */
  busy: number;
  failed: number;
  failures: string[];
}

export interface SteadyTimes {
  start: number;
  end: number;
  ok: number;
  busy: number;
  failed: number;
  failures: string[];
}

type LoginLoad = 'none' | 'steady' | 'burst';

export interface ChatRun {
  chat: ChatLoadResult;
  burst: BurstTimes | null;
  steady: SteadyTimes | null;
  /** CPU used by other processes during the window, as a share of one core. */
  otherCpuShare: number;
}

/** Fires the login burst: every challenge at once, then (all signed) every verify at once. */
async function fireBurst(driver: LoginDriver, logins: number): Promise<BurstTimes> {
  const start = performance.now();
  const prepared = await driver.call(
    { cmd: 'prepare', logins, concurrency: logins },
    LoginRunResultSchema,
  );
  const verifyStart = performance.now();
  const verified = await driver.call(
    { cmd: 'verifyPrepared', concurrency: logins },
    LoginRunResultSchema,
  );
  return {
    start,
    challengesDone: local(prepared.challengesDoneAt),
    verifyStart,
    end: local(verified.endedAt),
    ok: verified.ok,
    busy: verified.busy,
    failed: prepared.failed + verified.failed,
    failures: [...prepared.failures, ...verified.failures].slice(0, 5),
  };
}

/** Whole logins arriving at a steady rate for a while. */
async function fireSteady(driver: LoginDriver, rate: number, durationMs: number) {
  const start = performance.now();
  const result = await driver.call({ cmd: 'steady', rate, durationMs }, LoginRunResultSchema);
  return {
    start,
    end: local(result.endedAt),
    ok: result.ok,
    busy: result.busy,
    failed: result.failed,
    failures: result.failures,
  };
}

/**
 * The busy room for one window, with logins (steady or a burst) into it when asked. `ownPids`:
 * the processes under test (servers, their database backends, redis-server), whose CPU is not
 * other load.
 */
async function chatRun(
  settings: LoginSettings,
  ownPids: () => Promise<number[]>,
  driver: LoginDriver,
  rooms: BenchClient[][],
  load: LoginLoad,
): Promise<ChatRun> {
  const pids = await ownPids();
  let burst: Promise<BurstTimes> | null = null;
  let steady: Promise<SteadyTimes> | null = null;
  let other: OtherLoadMeter | null = null;
  let otherCpuShare = 0;
  const chat = await runChatLoad({
    rooms,
    sendersPerRoom: settings.chat.senders,
    ratePerSender: settings.chat.rate,
    warmupMs: settings.chat.warmupMs,
    windowMs: settings.chat.windowMs,
    drainMs: settings.chat.drainMs,
    onWindowStart: () => {
      other = new OtherLoadMeter([...pids, process.pid, driver.pid]);
      if (load === 'burst') {
        burst = sleep(settings.burst.afterMs).then(() => fireBurst(driver, settings.burst.logins));
      }
      if (load === 'steady') {
        steady = sleep(settings.steady.afterMs).then(() =>
          fireSteady(driver, settings.steady.rate, settings.steady.durationMs),
        );
      }
    },
    onWindowEnd: () => {
      otherCpuShare = other?.share() ?? 0;
    },
  });
  return {
    chat,
    burst: burst ? await burst : null,
    steady: steady ? await steady : null,
    otherCpuShare,
  };
}

export async function runLogins(context: BenchContext): Promise<ScenarioReport> {
  const settings = settingsFor(context.isQuick);
  context.progress(`ML-DSA-65 cost in-process (${settings.mlDsaVerifyIterations} verifications)`);
  const mlDsa = await measureMlDsaCost(
    settings.mlDsaVerifyIterations,
    Math.ceil(settings.mlDsaVerifyIterations / 20),
  );
  const server = await context.acquireServer('securechannel', 2);
  let serverReleased = false;
  const releaseServer = async () => {
    if (serverReleased) return;
    serverReleased = true;
    await context.releaseServer(server);
  };
  const driver = LoginDriver.start(context.generatorCpu);
  try {
    context.progress(`registering ${settings.keys} keys`);
    const setup = await driver.call(
      {
        cmd: 'setup',
        baseUrl: server.baseUrl,
        adminPassword: context.adminPassword,
        keys: settings.keys,
      },
      SetupResultSchema,
    );
    context.progress(`${settings.logins} whole logins, ${settings.concurrency} at a time`);
    const whole = await metered(server, driver, () =>
      driver.call(
        { cmd: 'logins', logins: settings.logins, concurrency: settings.concurrency },
        LoginRunResultSchema,
      ),
    );
    context.progress(
      `${settings.logins} challenges, then ${settings.logins} pre-signed verifications, ${settings.serverBoundConcurrency} at a time`,
    );
    // The server's work for a login at saturation: the challenges, all asked for
    // `serverBoundConcurrency` at a time (the server's CPU while the driver then signs is idle
    // time), then the verifications, sent as fast as the server answers.
    const challengesOnly = await metered(server, driver, () =>
      driver.call(
        { cmd: 'prepare', logins: settings.logins, concurrency: settings.serverBoundConcurrency },
        LoginRunResultSchema,
      ),
    );
    const verifyOnly = await metered(server, driver, () =>
      driver.call(
        { cmd: 'verifyPrepared', concurrency: settings.serverBoundConcurrency },
        LoginRunResultSchema,
      ),
    );

    // Timed again right after the server-bound phases: on a shared machine the load moves over a
    // run, and the ratio then divides by the mean of the two.
    context.progress('the verifications in-process again');
    const mlDsaAfter = await measureMlDsaCost(settings.mlDsaVerifyIterations, 1);
    context.progress(
      `chat: 1 room × ${settings.chat.members}, ${settings.rounds} round(s) without logins, with ${settings.steady.rate} logins/s, with a burst of ${settings.burst.logins}`,
    );
    const rounds = await chatRounds(context, settings, driver, server, () =>
      Promise.resolve([server.pid]),
    );
    await releaseServer();
    const split = await splitRounds(context, settings, driver);
    return loginReport({
      settings,
      mlDsa,
      mlDsaAfter,
      setup,
      whole,
      challengesOnly,
      verifyOnly,
      rounds,
      split,
    });
  } finally {
    await driver.stop();
    await releaseServer();
  }
}

/** The rounds of chat windows (without logins, steady, burst) in `chat`'s busy room. */
async function chatRounds(
  context: BenchContext,
  settings: LoginSettings,
  driver: LoginDriver,
  chat: RunningServer,
  ownPids: () => Promise<number[]>,
): Promise<LoginRound[]> {
  const connected = await connectMany({
    server: chat,
    count: settings.chat.members,
    roomFor: () => chat.rooms[1]!,
    concurrency: 50,
  });
  try {
    await sleep(500);
    const rounds: LoginRound[] = [];
    for (let round = 1; round <= settings.rounds; round += 1) {
      context.progress(`round ${round}/${settings.rounds}: without logins, steady, burst`);
      const quiet = await chatRun(settings, ownPids, driver, [connected.clients], 'none');
      const steady = await chatRun(settings, ownPids, driver, [connected.clients], 'steady');
      const burst = await chatRun(settings, ownPids, driver, [connected.clients], 'burst');
      rounds.push({ quiet, steady, burst });
    }
    return rounds;
  } finally {
    await closeAll(connected.clients);
  }
}

/**
 * The same rounds with the login routes on a process of their own: the chat server and a second
 * server under SCHED_IDLE, both on CPU 0, sharing a throwaway database and a Redis prefix. The
 * driver registers its keys with the login server and logs in there; the chat's members are on
 * the chat server.
 */
async function splitRounds(
  context: BenchContext,
  settings: LoginSettings,
  driver: LoginDriver,
): Promise<SplitFigures> {
  const resources = await ClusterResources.open();
  const cleanup: (() => Promise<void>)[] = [() => resources.close()];
  try {
    const { env, databaseName } = await sharedState(resources, cleanup);
    const chat = await context.startFreshServer('securechannel', 2, env);
    cleanup.push(() => context.releaseServer(chat));
    const logins = await context.startFreshServer('securechannel', 1, env, {
      idlePriority: true,
    });
    cleanup.push(() => context.releaseServer(logins));
    context.progress(
      `logins on a process of their own (SCHED_IDLE, same CPU, PostgreSQL + Redis): registering ${settings.keys} keys`,
    );
    await driver.call(
      {
        cmd: 'setup',
        baseUrl: logins.baseUrl,
        adminPassword: context.adminPassword,
        keys: settings.keys,
      },
      SetupResultSchema,
    );
    const idleRss = { chat: rssBytes(chat.pid), logins: rssBytes(logins.pid) };
    const ownPids = async () => [
      chat.pid,
      logins.pid,
      ...(await resources.databasePids(databaseName)),
      ...(resources.redisPid === null ? [] : [resources.redisPid]),
    ];
    const rounds = await chatRounds(context, settings, driver, chat, ownPids);
    return {
      rounds,
      rssBytes: {
        chatIdle: idleRss.chat,
        loginsIdle: idleRss.logins,
        chatAfter: rssBytes(chat.pid),
        loginsAfter: rssBytes(logins.pid),
      },
    };
  } finally {
    for (const step of cleanup.reverse()) await step().catch(() => undefined);
  }
}
