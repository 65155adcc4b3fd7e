/**
 * Logins (issue 22, targets 1 and 2; issue 36, target 1): K keys registered through the admin
 * API, then, over the chat socket (`login_challenge` and `login_verify` frames on `/chat-ws`
 * sockets opened before each phase and not metered, as the client logs in on the chat socket it
 * already holds; the headline and target 1's verdict), and again over the HTTP routes
 * (`POST /api/auth/challenge` and `/verify`, reported beside it):
 *  - whole logins (challenge → sign → verify) at a fixed concurrency, signing in the driver child:
 *    the server's CPU per login gives logins per second per core;
 *  - server-bound verifications: challenges fetched and signed first, then only the verify calls
 *    are timed, so the figure is the server's;
 *  - the in-process cost of one ML-DSA-65 verification, with each implementation (before the
 *    socket phases, between them and the HTTP phases, and after those);
 *  - chat latency in a busy room without logins, with logins arriving at a steady rate, and with a
 *    burst of logins arriving at once (every challenge requested at once, signed as it comes — the
 *    driver stands for browsers that each sign on their own CPU — then every verify sent at once;
 *    verifies refused as busy are sent again after Retry-After), in rounds, the logins over
 *    sockets opened before the rounds;
 *  - the same rounds with the logins served by a process of their own: a second server on the
 *    same CPU under SCHED_IDLE, both sharing a throwaway PostgreSQL database and a Redis prefix
 *    (the many-process deployment of docs/operations.md with the two login routes sent to one
 *    process), the chat on the first.
 */
import { z } from 'zod';
import { sleep, type BenchContext } from '../context.js';
import { closeAll, connectMany, type BenchClient } from '../load/clients.js';
import { runChatLoad, type ChatLoadResult } from '../load/chat-load.js';
import { LoginDriver } from '../load/login-client.js';
import {
  CloseSocketsResultSchema,
  LoginRunResultSchema,
  OpenSocketsResultSchema,
  SetupResultSchema,
  type LoginRunResult,
  type LoginTransport,
} from '../load/login-protocol.js';
import { measureMlDsaCost, type MlDsaCost } from '../load/ml-dsa-cost.js';
import { CpuMeter, OtherLoadMeter, rssBytes } from '../process-stats.js';
import { fixed, type Check, type ScenarioReport, type Table } from '../report.js';
import type { RunningServer } from '../server-process.js';
import { ClusterResources, sharedState } from './cluster-setups.js';
import {
  loginReport,
  type LoginRound,
  type MeteredRun,
  type SplitFigures,
} from './logins-report.js';

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

/**
 * Login sockets (the `socket` transport) per loopback source address: under the server's 50
 * (MAX_SOCKETS_PER_ADDRESS as shipped), which the bench servers do not raise.
 */
const LOGIN_SOCKETS_PER_ADDRESS = 40;
/**
 * Most frames one login socket sends in a phase: well under the hub's burst of 40 frames a
 * socket (20 a second), so that no frame of a phase is dropped for its socket's rate.
 */
const FRAMES_PER_SOCKET = 15;
/** Most login sockets open at once. */
const MAX_LOGIN_SOCKETS = 2000;
/** Between opening a phase's sockets and metering it, for what the upgrades set off to settle. */
const SOCKETS_SETTLE_MS = 300;

/**
 * Sockets for a phase of `frames` login frames (a login sends two, a prepared verify one) with
 * `concurrency` logins at once: one login at a time per socket, at most FRAMES_PER_SOCKET frames
 * each.
 */
const socketsFor = (frames: number, concurrency: number) =>
  Math.min(MAX_LOGIN_SOCKETS, Math.max(concurrency, Math.ceil(frames / FRAMES_PER_SOCKET)));

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

/** The logins into the chat rounds come over sockets, as the client's do. */
const CHAT_ROUNDS_TRANSPORT: LoginTransport = 'socket';

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
    { cmd: 'prepare', transport: CHAT_ROUNDS_TRANSPORT, logins, concurrency: logins },
    LoginRunResultSchema,
  );
  const verifyStart = performance.now();
  const verified = await driver.call(
    { cmd: 'verifyPrepared', transport: CHAT_ROUNDS_TRANSPORT, concurrency: logins },
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
  const result = await driver.call(
    { cmd: 'steady', transport: CHAT_ROUNDS_TRANSPORT, rate, durationMs },
    LoginRunResultSchema,
  );
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
    // Target 1 over the chat socket (the headline), then the routes' path beside it. The
    // in-process verifications are timed before, between and after: each path's ratio divides by
    // the mean of the timings either side of its phases.
    const socket = await serverBoundPhases(context, settings, driver, server, 'socket');
    context.progress('the verifications in-process again');
    const mlDsaAfter = await measureMlDsaCost(settings.mlDsaVerifyIterations, 1);
    const http = await serverBoundPhases(context, settings, driver, server, 'http');
    context.progress('the verifications in-process once more');
    const mlDsaAfterHttp = await measureMlDsaCost(settings.mlDsaVerifyIterations, 1);
    context.progress(
      `chat: 1 room × ${settings.chat.members}, ${settings.rounds} round(s) without logins, with ${settings.steady.rate} logins/s, with a burst of ${settings.burst.logins} (logins over sockets)`,
    );
    const rounds = await chatRounds(context, settings, driver, server, server, () =>
      Promise.resolve([server.pid]),
    );
    await releaseServer();
    const split = await splitRounds(context, settings, driver);
    const common = { settings, setup, rounds, split };
    return withHttpBeside(
      loginReport({ ...common, mlDsa, mlDsaAfter, ...socket.runs }),
      loginReport({ ...common, mlDsa: mlDsaAfter, mlDsaAfter: mlDsaAfterHttp, ...http.runs }),
      { socket, http, mlDsaAfterHttp },
    );
  } finally {
    await driver.stop();
    await releaseServer();
  }
}

/**
 * The rounds of chat windows (without logins, steady, burst) in `chat`'s busy room, the logins
 * over sockets to `logins` opened before the rounds (so in every window alike) and closed after.
 */
async function chatRounds(
  context: BenchContext,
  settings: LoginSettings,
  driver: LoginDriver,
  chat: RunningServer,
  logins: RunningServer,
  ownPids: () => Promise<number[]>,
): Promise<LoginRound[]> {
  const connected = await connectMany({
    server: chat,
    count: settings.chat.members,
    roomFor: () => chat.rooms[1]!,
    concurrency: 50,
  });
  // Enough for the whole burst at once; the steady logins take them in turn.
  const steadyLogins = Math.round((settings.steady.rate * settings.steady.durationMs) / 1000);
  const sockets = socketsFor(
    2 * Math.max(settings.burst.logins, steadyLogins),
    settings.burst.logins,
  );
  try {
    context.progress(`opening ${sockets} login sockets`);
    await driver.call(
      {
        cmd: 'openSockets',
        wsUrl: logins.wsUrl,
        count: sockets,
        perAddress: LOGIN_SOCKETS_PER_ADDRESS,
      },
      OpenSocketsResultSchema,
    );
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
    await driver.call({ cmd: 'closeSockets' }, CloseSocketsResultSchema).catch(() => undefined);
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
    const rounds = await chatRounds(context, settings, driver, chat, logins, ownPids);
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

/** Sockets of one metered phase of the `socket` transport. */
interface PhaseSockets {
  phase: 'whole' | 'challengesOnly' | 'verifyOnly';
  sockets: number;
  addresses: number;
  /** Frames the hub dropped for a socket's rate over the phase (its "rate limited" frames). */
  rateLimited: number;
}

/** The server-bound phases of target 1 over one transport. */
interface TransportRuns {
  transport: LoginTransport;
  runs: { whole: MeteredRun; challengesOnly: MeteredRun; verifyOnly: MeteredRun };
  /** `socket`: the sockets each phase used; empty over `http`. */
  sockets: PhaseSockets[];
}

/**
 * Whole logins, then challenges alone, then pre-signed verifications alone, each metered, over
 * `transport`. For `socket`, each phase gets sockets opened before it (not metered: the client's
 * chat socket is open before it logs in) and closed after it.
 */
async function serverBoundPhases(
  context: BenchContext,
  settings: LoginSettings,
  driver: LoginDriver,
  server: RunningServer,
  transport: LoginTransport,
): Promise<TransportRuns> {
  const sockets: PhaseSockets[] = [];
  const phase = async (
    name: PhaseSockets['phase'],
    frames: number,
    concurrency: number,
    run: () => Promise<LoginRunResult>,
  ): Promise<MeteredRun> => {
    if (transport === 'http') return metered(server, driver, run);
    const count = socketsFor(frames, concurrency);
    const opened = await driver.call(
      { cmd: 'openSockets', wsUrl: server.wsUrl, count, perAddress: LOGIN_SOCKETS_PER_ADDRESS },
      OpenSocketsResultSchema,
    );
    try {
      await sleep(SOCKETS_SETTLE_MS);
      return await metered(server, driver, run);
    } finally {
      const closed = await driver.call({ cmd: 'closeSockets' }, CloseSocketsResultSchema);
      sockets.push({
        phase: name,
        sockets: count,
        addresses: opened.addresses.length,
        rateLimited: closed.rateLimited,
      });
    }
  };
  const path = transport === 'socket' ? 'over the chat socket' : "over the HTTP routes' path";
  context.progress(`${path}: ${settings.logins} whole logins, ${settings.concurrency} at a time`);
  const whole = await phase('whole', 2 * settings.logins, settings.concurrency, () =>
    driver.call(
      { cmd: 'logins', transport, logins: settings.logins, concurrency: settings.concurrency },
      LoginRunResultSchema,
    ),
  );
  context.progress(
    `${path}: ${settings.logins} challenges, then ${settings.logins} pre-signed verifications, ${settings.serverBoundConcurrency} at a time`,
  );
  // The server's work for a login at saturation: the challenges, all asked for
  // `serverBoundConcurrency` at a time (the server's CPU while the driver then signs is idle
  // time), then the verifications, sent as fast as the server answers.
  const challengesOnly = await phase(
    'challengesOnly',
    settings.logins,
    settings.serverBoundConcurrency,
    () =>
      driver.call(
        {
          cmd: 'prepare',
          transport,
          logins: settings.logins,
          concurrency: settings.serverBoundConcurrency,
        },
        LoginRunResultSchema,
      ),
  );
  const verifyOnly = await phase(
    'verifyOnly',
    settings.logins,
    settings.serverBoundConcurrency,
    () =>
      driver.call(
        { cmd: 'verifyPrepared', transport, concurrency: settings.serverBoundConcurrency },
        LoginRunResultSchema,
      ),
  );
  return { transport, runs: { whole, challengesOnly, verifyOnly }, sockets };
}

/** The checks and tables of target 1 that loginReport makes, found by how they begin. */
const TARGET_1_CHECKS = ['server CPU per key login', 'key logins per second per core'];
const LOGIN_COST_TABLE = 'Login cost';
const SOCKET_PATH = 'over the chat socket (login_challenge + login_verify frames)';
const HTTP_PATH = "over the HTTP routes' path (POST /api/auth/challenge + /api/auth/verify)";

/** The derived figures of the login cost that differ between the two paths (the JSON's `http`). */
const LOGIN_COST_FIGURES = [
  'wholePerSecond',
  'verifyPerSecond',
  'serverMsPerLogin',
  'serverMsPerVerify',
  'serverMsPerChallenge',
  'serverMsPerSaturatedLogin',
  'loginsPerCore',
  'mlDsaVerifyUs',
  'ecdsaVerifyUs',
  'mlDsaVerifyUsAfter',
  'ecdsaVerifyUsAfter',
  'cryptoUsPerLogin',
  'cryptoRatio',
  'wholeCryptoRatio',
] as const;

const ReportDataSchema = z.looseObject({ derived: z.record(z.string(), z.number()) });

function findCheck(report: ScenarioReport, prefix: string): Check {
  const check = report.checks.find((each) => each.name.startsWith(prefix));
  if (!check) throw new Error(`logins report: no check "${prefix}…"`);
  return check;
}

function findTable(report: ScenarioReport, prefix: string): Table {
  const table = report.tables.find((each) => each.title.startsWith(prefix));
  if (!table) throw new Error(`logins report: no table "${prefix}…"`);
  return table;
}

/**
 * The socket report (target 1's verdict, the chat rounds) with the HTTP routes' figures of
 * target 1 beside it: their checks as information, their login-cost table after the socket's,
 * their notes that differ, and their figures in the JSON under `http` (the JSON's earlier fields
 * keep their names and now hold the socket's figures; `transport` says so).
 */
function withHttpBeside(
  socketReport: ScenarioReport,
  httpReport: ScenarioReport,
  extra: { socket: TransportRuns; http: TransportRuns; mlDsaAfterHttp: MlDsaCost },
): ScenarioReport {
  const httpDerived = ReportDataSchema.parse(httpReport.data).derived;
  const socketData = ReportDataSchema.parse(socketReport.data);

  for (const prefix of TARGET_1_CHECKS) findCheck(socketReport, prefix);
  const checks = socketReport.checks.map((check) =>
    TARGET_1_CHECKS.some((prefix) => check.name.startsWith(prefix))
      ? { ...check, name: `${SOCKET_PATH}: ${check.name}` }
      : check,
  );
  const lastTarget1 = checks.findLastIndex((check) => check.name.startsWith(SOCKET_PATH));
  checks.splice(
    lastTarget1 + 1,
    0,
    ...TARGET_1_CHECKS.map((prefix) => {
      const check = findCheck(httpReport, prefix);
      return {
        ...check,
        name: `${HTTP_PATH}, beside it: ${check.name}`,
        target: `no target (the socket's figure is the verdict); ${check.target}`,
        pass: null,
      };
    }),
  );

  const socketCost = findTable(socketReport, LOGIN_COST_TABLE);
  const httpCost = findTable(httpReport, LOGIN_COST_TABLE);
  const phaseSockets = extra.socket.sockets
    .map((each) => `${each.phase} ${each.sockets} on ${each.addresses} address(es)`)
    .join(', ');
  const rateLimited = extra.socket.sockets.reduce((sum, each) => sum + each.rateLimited, 0);
  const socketTable: Table = {
    ...socketCost,
    title: `${LOGIN_COST_TABLE} ${SOCKET_PATH}, the headline and target 1: sockets opened before each phase, not metered — ${socketCost.title}`,
    rows: [
      ...socketCost.rows,
      [`sockets per phase (at most ${LOGIN_SOCKETS_PER_ADDRESS} per source address)`, phaseSockets],
      ['frames dropped for a socket\'s rate ("rate limited")', String(rateLimited)],
      ['("503" above: error frames with retryAfterSeconds, sent again after it)', ''],
    ],
  };
  const httpTable: Table = {
    ...httpCost,
    title: `${LOGIN_COST_TABLE} ${HTTP_PATH}, beside it (no target; its ratio divides by the in-process verifications timed after the socket phases and again after these, ${fixed(httpDerived.cryptoUsPerLogin ?? Number.NaN, 1)} µs) — ${httpCost.title}`,
  };
  const tables = socketReport.tables.flatMap((table) =>
    table === socketCost ? [socketTable, httpTable] : [table],
  );

  const notes = [
    ...socketReport.notes,
    ...httpReport.notes
      .filter((note) => !socketReport.notes.includes(note))
      .map((note) => `the HTTP routes' path: ${note}`),
  ];

  return {
    ...socketReport,
    checks,
    tables,
    notes,
    data: {
      ...socketData,
      transport: 'socket',
      sockets: extra.socket.sockets,
      http: {
        transport: 'http',
        ...extra.http.runs,
        // The in-process timings its ratio divides by (the mean of the two): the top level's
        // mlDsaAfter (after the socket phases) and this one (after the HTTP phases).
        mlDsaAfter: extra.mlDsaAfterHttp,
        derived: Object.fromEntries(
          LOGIN_COST_FIGURES.map((name) => [name, httpDerived[name] ?? null]),
        ),
      },
    },
  };
}
