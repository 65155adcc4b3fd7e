/**
 * Connect + join: how long 10,000 sockets take to connect and join their rooms (rooms of ten),
 * until each has its room_joined (SecureChannel) or its join acknowledgement (bare), with a
 * bounded number of sockets connecting at once. No target was set; the ratio is informational.
 */
import { OTHER_LOAD_LIMIT, type BenchContext } from '../context.js';
import { closeAll, connectMany } from '../load/clients.js';
import { fixed, percent, times, type ScenarioReport } from '../report.js';
import { SERVER_LABEL, type ServerKind } from '../server-process.js';
import { distribution, ratio, type Distribution } from '../stats.js';
import {
  addressCounter,
  listDatabasePids,
  processFor,
  ServiceMeter,
  singleServer,
  type ServiceTarget,
} from '../target.js';

export interface ConnectSettings {
  sockets: number;
  roomSize: number;
  concurrency: number;
}

export function connectSettingsFor(isQuick: boolean): ConnectSettings {
  return isQuick
    ? { sockets: 300, roomSize: 10, concurrency: 50 }
    : { sockets: 10_000, roomSize: 10, concurrency: 200 };
}

export interface ConnectRun {
  server: ServerKind;
  wallMs: number;
  joinsPerSecond: number;
  joinMs: Distribution;
  /** CPU of the service's server processes, summed. */
  serverCpuMs: number;
  serverCpuUsPerJoin: number;
  /** redis-server's CPU meanwhile (null: no Redis, or not measured). */
  redisCpuMs: number | null;
  /** The PostgreSQL backends' CPU meanwhile (null: no PostgreSQL). */
  databaseCpuMs: number | null;
  otherCpuShare: number;
}

async function measure(
  context: BenchContext,
  kind: ServerKind,
  settings: ConnectSettings,
): Promise<ConnectRun> {
  context.progress(`${SERVER_LABEL[kind]}: ${settings.sockets} sockets connect and join`);
  const server = await context.acquireServer(kind, Math.ceil(settings.sockets / settings.roomSize));
  try {
    return await measureConnect(singleServer(server), settings);
  } finally {
    await context.releaseServer(server);
  }
}

/**
 * Opens `settings.sockets` sockets to a running service, each joining its room (rooms of
 * `roomSize`; with several processes, consecutive sockets alternate between them), and closes
 * them again.
 */
export async function measureConnect(
  target: ServiceTarget,
  settings: ConnectSettings,
): Promise<ConnectRun> {
  const roomOf = (index: number) => Math.floor(index / settings.roomSize);
  if (target.rooms.length < roomOf(settings.sockets - 1) + 1)
    throw new Error(`${settings.sockets} sockets need more rooms than ${target.rooms.length}`);
  const meter = await ServiceMeter.start(target);
  const result = await connectMany({
    server: addressCounter(target),
    serverFor: (index) => processFor(target, 0, index),
    count: settings.sockets,
    roomFor: (index) => target.rooms[roomOf(index)]!,
    concurrency: settings.concurrency,
  });
  const cpu = meter.read(await listDatabasePids(target));
  await closeAll(result.clients);
  return {
    server: target.kind,
    wallMs: result.wallMs,
    joinsPerSecond: (settings.sockets * 1000) / result.wallMs,
    joinMs: distribution(result.joinMs),
    serverCpuMs: cpu.serverCpuMs,
    serverCpuUsPerJoin: (cpu.serverCpuMs * 1000) / settings.sockets,
    redisCpuMs: cpu.redisCpuMs,
    databaseCpuMs: cpu.databaseCpuMs,
    otherCpuShare: cpu.wallMs > 0 ? cpu.otherCpuMs / cpu.wallMs : 0,
  };
}

export async function runConnect(context: BenchContext): Promise<ScenarioReport> {
  const settings = connectSettingsFor(context.isQuick);
  const secure = await measure(context, 'securechannel', settings);
  const bare = await measure(context, 'bare', settings);
  const row = (run: ConnectRun) => [
    SERVER_LABEL[run.server],
    fixed(run.wallMs / 1000, 2),
    fixed(run.joinsPerSecond, 0),
    fixed(run.joinMs.p50, 1),
    fixed(run.joinMs.p99, 1),
    fixed(run.joinMs.max, 1),
    fixed(run.serverCpuUsPerJoin, 0),
  ];
  const timeRatio = ratio(secure.wallMs, bare.wallMs);
  return {
    scenario: 'connect',
    tables: [
      {
        title:
          `Connect + join: ${settings.sockets} sockets, rooms of ${settings.roomSize}, ` +
          `${settings.concurrency} connecting at once`,
        columns: ['server', 'total s', 'joins/s', 'p50 ms', 'p99 ms', 'max ms', 'srv CPU µs/join'],
        rows: [
          row(secure),
          row(bare),
          [
            'ratio SC/bare',
            times(timeRatio),
            '',
            '',
            '',
            '',
            times(ratio(secure.serverCpuUsPerJoin, bare.serverCpuUsPerJoin)),
          ],
        ],
      },
    ],
    checks: [
      {
        scenario: 'connect',
        name: `time for ${settings.sockets} sockets to connect and join`,
        target: 'none set (informational)',
        actual: `${fixed(secure.wallMs / 1000, 2)} s vs ${fixed(bare.wallMs / 1000, 2)} s bare (${times(timeRatio)})`,
        pass: null,
      },
    ],
    notes: [secure, bare]
      .filter((run) => run.otherCpuShare > OTHER_LOAD_LIMIT)
      .map(
        (run) =>
          `${SERVER_LABEL[run.server]}: other processes used ${percent(run.otherCpuShare, 0)} of a core meanwhile; its figures are disturbed`,
      ),
    data: { settings, secure, bare },
  };
}
