/**
 * The Tor service: runs tor with our torrc, controls it through the control port, and answers
 * for its status (spec 000 §3, §4, §7; spec 001 §4). No Fastify here; routes.ts calls it.
 *
 * States: unavailable (no tor binary) → stopped ⇄ running. While running the network is either
 * disabled (the torrc's `DisableNetwork 1`: spec "Disconnected") or enabled by TOR CONNECT
 * ("Connecting" until a circuit is established, then "Connected").
 *
 * One action at a time: start, stop, restart, connect, disconnect and bridge changes queue on one
 * promise chain, so two admins clicking at once cannot start two tors.
 */
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { TOR } from '../../../shared/constants.js';
import {
  isOnionAddress,
  TOR_TEXT,
  type TorActionResponse,
  type TorAdminStatus,
  type TorConnectResponse,
  type TorState,
} from '../../../shared/protocol/http/tor.js';
import { AppError } from '../../errors.js';
import type { BridgeStore } from './bridges.js';
import { TorControlClient, type ControlEvent } from './control-client.js';
import { LogRing, TorChild } from './process.js';
import { fetchThroughSocks, isPortFree, isPortOpen } from './probes.js';
import { detectPowSupport, type PowSupport } from './tor-capabilities.js';
import { buildTorrc, TRANSPORTS } from './torrc.js';

export interface TorLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export interface TorServiceDeps {
  /** The tor binary, or null: Tor is then reported unavailable. */
  bin: string | null;
  /** DATA_DIR/tor. */
  directory: string;
  socksPort: number;
  controlPort: number;
  /** The app's listening address once it listens, else null. */
  appAddress: () => { host: string; port: number } | null;
  /** The loopback listener tor forwards onion streams to (onion-entrance.ts). */
  entrance: { listen(host: '127.0.0.1' | '::1'): Promise<{ host: string; port: number }> };
  bridges: BridgeStore;
  /** Whether tor should run at the next server start (the admin's last start or stop). */
  desired: { get(): Promise<boolean>; set(running: boolean): Promise<void> };
  /** True when a transport binary exists and is executable. */
  hasBinary: (file: string) => boolean;
  now: () => number;
  log: TorLogger;
  /** How long start waits for the control port (default 30 s). */
  startTimeoutMs?: number;
  /** Whether the tor at `bin` supports proof of work (default: asks the binary, once). */
  powSupport?: (bin: string) => Promise<PowSupport>;
  /**
   * How often the onion service tests itself while connected (default
   * TOR.bridgeTestIntervalMs, 30 s); a first test runs as soon as a circuit is established.
   */
  selfTestIntervalMs?: number;
}

/** The onion service's virtual port: visitors open http://<address>.onion/. */
export const ONION_VIRTUAL_PORT = 80;
const FIRST_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 60_000;
/** A tor that ran this long before dying restarts without delay growth. */
const HEALTHY_RUN_MS = 60_000;
const STATUS_CACHE_MS = 1000;

interface Running {
  child: TorChild;
  control: TorControlClient;
  startedAt: number;
  version: string | null;
}

export class TorService {
  private running: Running | null = null;
  private chain: Promise<unknown> = Promise.resolve();
  private wantRunning = false;
  private networkEnabled = false;
  private bootstrapProgress = 0;
  private circuitEstablished = false;
  private hiddenServiceReachable = false;
  /** When the onion service last tested itself (deps.now() ms); null: not since connecting. */
  private hiddenServiceCheckedAt: number | null = null;
  private selfTest: Promise<boolean> | null = null;
  private selfTestTimer: NodeJS.Timeout | null = null;
  private lastError: string | null = null;
  private backoffMs = FIRST_BACKOFF_MS;
  private restartTimer: NodeJS.Timeout | null = null;
  private circuitTimer: NodeJS.Timeout | null = null;
  private closed = false;
  private statusCache: { at: number; value: Promise<TorAdminStatus> } | null = null;
  private powReported = false;
  readonly logs = new LogRing();

  constructor(private readonly deps: TorServiceDeps) {}

  get paths() {
    const dir = this.deps.directory;
    return {
      torrc: path.join(dir, 'torrc'),
      data: path.join(dir, 'data'),
      hiddenService: path.join(dir, 'hidden_service'),
      hostname: path.join(dir, 'hidden_service', 'hostname'),
      cookie: path.join(dir, 'control_auth_cookie'),
    };
  }

  get isAvailable(): boolean {
    return this.deps.bin !== null;
  }

  /** True while the tor child process runs (whether or not its network is enabled). */
  get isRunning(): boolean {
    return this.running !== null && !this.running.child.hasExited;
  }

  /** Starts tor when the admin left it running before the last shutdown. */
  async resume(): Promise<void> {
    if (!this.isAvailable || !(await this.deps.desired.get())) return;
    await this.start().catch((error: unknown) => {
      this.deps.log.warn({ err: errorName(error) }, 'tor did not start');
    });
  }

  start(): Promise<TorActionResponse> {
    return this.serial(async () => {
      this.requireAvailable();
      if (this.running) return this.answer(true, 'Tor is already running');
      await this.deps.desired.set(true);
      this.wantRunning = true;
      await this.launch();
      return this.answer(true, 'Tor started');
    });
  }

  stop(): Promise<TorActionResponse> {
    return this.serial(async () => {
      this.requireAvailable();
      await this.deps.desired.set(false);
      await this.halt();
      return this.answer(true, 'Tor stopped');
    });
  }

  restart(): Promise<TorActionResponse> {
    return this.serial(async () => {
      this.requireAvailable();
      await this.deps.desired.set(true);
      const network = this.networkEnabled;
      await this.halt();
      this.wantRunning = true;
      this.networkEnabled = network;
      await this.launch();
      return this.answer(true, 'Tor restarted');
    });
  }

  /** TOR CONNECT: lifts DisableNetwork (starting tor first if needed) and asks for new circuits. */
  connect(): Promise<TorConnectResponse> {
    return this.serial(async () => {
      this.requireAvailable();
      if (!this.running) {
        await this.deps.desired.set(true);
        this.wantRunning = true;
        await this.launch();
      }
      const running = this.mustRun();
      await running.control.setConf({ DisableNetwork: '0' });
      this.networkEnabled = true;
      await running.control.signal('NEWNYM').catch(() => undefined); // rate-limited: harmless
      this.watchCircuitTimeout();
      this.invalidate();
      const status = await this.status();
      return {
        success: true,
        circuits: status.circuits,
        onionAddress: status.onionAddress,
        message: status.connected
          ? 'Connected to the Tor network'
          : 'Connecting to the Tor network',
      };
    });
  }

  /** TOR DISCONNECT: sets DisableNetwork again; tor keeps running with its control port. */
  disconnect(): Promise<TorActionResponse> {
    return this.serial(async () => {
      this.requireAvailable();
      const running = this.mustRun();
      await running.control.setConf({ DisableNetwork: '1' });
      this.networkEnabled = false;
      this.circuitEstablished = false;
      this.forgetSelfTest();
      this.bootstrapProgress = 0;
      this.clearCircuitTimer();
      this.invalidate();
      return this.answer(true, 'Disconnected from the Tor network');
    });
  }

  /**
   * TOR TEST: fetches /api/ping from our own onion address through tor (spec 000 §7), at once.
   * The same test also runs by itself while connected (`hiddenServiceReachable` in the status).
   */
  async testHiddenService(): Promise<TorActionResponse> {
    this.requireAvailable();
    const onion = await this.onionAddress();
    if (!this.running || !onion) return this.answer(false, TOR_TEXT.notRunning);
    if (!this.networkEnabled) {
      this.forgetSelfTest();
      return this.answer(false, 'Tor is disconnected: connect first to test the onion service');
    }
    const reachable = await this.testOnionService();
    return this.answer(
      reachable,
      reachable
        ? 'The onion service answered through Tor'
        : 'The onion service did not answer through Tor',
    );
  }

  /** Whether tor runs with its network enabled and a circuit established. */
  private get isConnected(): boolean {
    return this.isRunning && this.networkEnabled && this.circuitEstablished;
  }

  /**
   * One self-test at a time (the timer's and TOR TEST share it): asks tor's SOCKS port for
   * http://<our onion>/api/ping. Reachable means tor found our descriptor and a rendezvous, the
   * entrance handed the stream to the app, and the app answered 200.
   */
  private testOnionService(): Promise<boolean> {
    this.selfTest ??= this.runSelfTest().finally(() => {
      this.selfTest = null;
    });
    return this.selfTest;
  }

  private async runSelfTest(): Promise<boolean> {
    const onion = await this.onionAddress();
    const running = this.running;
    if (!running || !onion || !this.networkEnabled) return false;
    let reachable: boolean;
    try {
      const status = await fetchThroughSocks({
        socksPort: this.deps.socksPort,
        onion,
        port: ONION_VIRTUAL_PORT,
        path: '/api/ping',
        timeoutMs: TOR.circuitTimeoutMs,
      });
      reachable = status === 200;
    } catch {
      reachable = false;
    }
    // Stopped or disconnected meanwhile: the answer belongs to a tor that is gone.
    if (this.running !== running || !this.networkEnabled) return false;
    if (reachable !== this.hiddenServiceReachable || this.hiddenServiceCheckedAt === null) {
      if (reachable) this.deps.log.info({}, 'tor: the onion service answers through Tor');
      else this.deps.log.warn({}, 'tor: the onion service does not answer through Tor');
    }
    this.hiddenServiceReachable = reachable;
    this.hiddenServiceCheckedAt = this.deps.now();
    this.invalidate();
    return reachable;
  }

  /** A circuit was (or was not) established: the first self-test runs when one is. */
  private noteCircuit(established: boolean): void {
    const was = this.circuitEstablished;
    this.circuitEstablished = established;
    if (established && !was && this.isConnected) void this.testOnionService();
  }

  private startSelfTests(): void {
    if (this.selfTestTimer) return;
    this.selfTestTimer = setInterval(() => {
      if (this.isConnected && !this.closed) void this.testOnionService();
    }, this.deps.selfTestIntervalMs ?? TOR.bridgeTestIntervalMs);
    this.selfTestTimer.unref();
  }

  private stopSelfTests(): void {
    if (this.selfTestTimer) clearInterval(this.selfTestTimer);
    this.selfTestTimer = null;
  }

  private forgetSelfTest(): void {
    this.hiddenServiceReachable = false;
    this.hiddenServiceCheckedAt = null;
  }

  /** Status with the admin fields; cached for a second (every visitor's card polls it). */
  status(): Promise<TorAdminStatus> {
    const at = this.deps.now();
    if (this.statusCache && at - this.statusCache.at < STATUS_CACHE_MS) {
      return this.statusCache.value;
    }
    const value = this.readStatus();
    this.statusCache = { at, value };
    return value;
  }

  /** Rewrites the torrc with the current bridges; a running tor re-reads it. */
  applyConfiguration(): Promise<void> {
    return this.serial(async () => {
      if (!this.isAvailable) return;
      await this.writeTorrc();
      const running = this.running;
      if (!running) return;
      await running.control.signal('RELOAD');
      // The torrc says DisableNetwork 1; keep the admin's choice.
      if (this.networkEnabled) await running.control.setConf({ DisableNetwork: '0' });
      this.invalidate();
    });
  }

  /** Stops tor with the server (the admin's choice for the next start is kept). */
  async close(): Promise<void> {
    this.closed = true;
    this.stopSelfTests();
    await this.chain.catch(() => undefined);
    await this.halt();
  }

  /** Transport binaries missing for the stored bridges' types. */
  async missingTransports(): Promise<string[]> {
    const types = new Set((await this.deps.bridges.list()).map((bridge) => bridge.type));
    return [...types]
      .filter((type) => !this.deps.hasBinary(TRANSPORTS[type].binary))
      .map((type) => `${TRANSPORTS[type].binary} (${type})`);
  }

  // ---- internals -------------------------------------------------------------------------

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const next = this.chain.then(task, task);
    this.chain = next.catch(() => undefined);
    return next;
  }

  private requireAvailable(): void {
    if (!this.isAvailable) throw new AppError('TOR_UNAVAILABLE', 503, TOR_TEXT.unavailable);
  }

  private mustRun(): Running {
    if (!this.running) throw new AppError('TOR_NOT_RUNNING', 409, TOR_TEXT.notRunning);
    return this.running;
  }

  private async answer(success: boolean, message: string): Promise<TorActionResponse> {
    return { success, message, onionAddress: await this.onionAddress() };
  }

  private invalidate(): void {
    this.statusCache = null;
  }

  private async writeTorrc(): Promise<void> {
    const paths = this.paths;
    const address = this.deps.appAddress();
    if (!address)
      throw new AppError('TOR_APP_NOT_LISTENING', 409, 'The server is not listening yet');
    const loopback = address.host === '::1' ? '::1' : '127.0.0.1';
    const entrance = await this.deps.entrance.listen(loopback);
    const bridges = (await this.deps.bridges.list()).filter(
      (bridge) => bridge.active && this.deps.hasBinary(TRANSPORTS[bridge.type].binary),
    );
    for (const folder of [this.deps.directory, paths.data, paths.hiddenService]) {
      await mkdir(folder, { recursive: true, mode: 0o700 });
      await chmod(folder, 0o700); // tor refuses a group- or world-readable onion key folder
    }
    const pow = await (this.deps.powSupport ?? detectPowSupport)(this.deps.bin!);
    if (!this.powReported) {
      this.powReported = true;
      if (pow.supported) this.deps.log.info({}, 'tor: onion service proof-of-work defence on');
      else this.deps.log.warn({ reason: pow.reason }, 'tor: no proof-of-work defence');
    }
    let text: string;
    try {
      text = buildTorrc({
        dataDirectory: paths.data,
        hiddenServiceDir: paths.hiddenService,
        cookieFile: paths.cookie,
        socksPort: this.deps.socksPort,
        controlPort: this.deps.controlPort,
        serviceTarget: entrance,
        virtualPort: ONION_VIRTUAL_PORT,
        bridges,
        ownerPid: process.pid,
        powDefenses: pow.supported,
      });
    } catch (error) {
      throw new AppError('TOR_CONFIG', 500, (error as Error).message, { cause: error });
    }
    await writeFile(paths.torrc, text, { mode: 0o600 });
  }

  /** Spawns tor and waits until its control port accepts our cookie. */
  private async launch(): Promise<void> {
    const bin = this.deps.bin!;
    for (const [label, port] of [
      ['SOCKS', this.deps.socksPort],
      ['Control', this.deps.controlPort],
    ] as const) {
      if (!(await isPortFree(port))) {
        this.lastError = `${label} port ${port} is already in use`;
        throw new AppError('TOR_PORT_IN_USE', 409, this.lastError);
      }
    }
    await this.writeTorrc();
    await rm(this.paths.cookie, { force: true });
    this.bootstrapProgress = 0;
    this.circuitEstablished = false;
    const child = new TorChild({
      bin,
      torrcPath: this.paths.torrc,
      onLog: (line) => this.logs.push(line),
      onExit: (code, signal) => this.onExit(child, code, signal),
    });
    const control = await this.waitForControl(child);
    const running: Running = { child, control, startedAt: this.deps.now(), version: null };
    this.running = running;
    control.onEvent((event) => this.onControlEvent(event));
    control.onClose(() => {
      if (this.running === running && !child.hasExited) void child.stop();
    });
    await control.subscribeStatus();
    running.version = (await control.getInfo(['version'])).version.slice(0, 80);
    if (this.networkEnabled) await control.setConf({ DisableNetwork: '0' });
    this.lastError = null;
    this.forgetSelfTest();
    this.startSelfTests();
    this.invalidate();
    this.deps.log.info({ pid: child.pid, version: running.version }, 'tor started');
  }

  private async waitForControl(child: TorChild): Promise<TorControlClient> {
    // Real time, not the injectable clock: this waits for a real process.
    const deadline = Date.now() + (this.deps.startTimeoutMs ?? 30_000);
    let lastProblem = 'tor did not open its control port';
    while (!child.hasExited && Date.now() <= deadline) {
      try {
        const cookie = await readFile(this.paths.cookie);
        const control = await TorControlClient.connect({
          host: '127.0.0.1',
          port: this.deps.controlPort,
          timeoutMs: 2000,
        });
        try {
          await control.authenticate(cookie);
          return control;
        } catch (error) {
          control.close();
          lastProblem = `control authentication failed (${errorName(error)})`;
        }
      } catch {
        // Not up yet: no cookie or no listener.
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await child.stop();
    const lastLog = this.logs.last(1)[0] ?? '';
    this.lastError = child.hasExited
      ? `tor exited during start: ${lastLog.replace(/^.*?\[(warn|err|notice)\] /, '')}`.slice(
          0,
          300,
        )
      : lastProblem;
    throw new AppError('TOR_START_FAILED', 500, this.lastError);
  }

  private onControlEvent(event: ControlEvent): void {
    if (event.kind === 'bootstrap') this.bootstrapProgress = event.progress;
    if (event.kind === 'circuit-established') {
      this.noteCircuit(true);
      this.clearCircuitTimer();
    }
    if (event.kind === 'circuit-not-established') this.noteCircuit(false);
    this.invalidate();
  }

  /** tor died: restart with backoff while it is wanted. */
  private onExit(child: TorChild, code: number | null, signal: NodeJS.Signals | null): void {
    const running = this.running;
    if (!running || running.child !== child) return;
    running.control.close();
    this.running = null;
    this.invalidate();
    if (!this.wantRunning || this.closed) return;
    this.lastError = `tor exited unexpectedly (${signal ?? `code ${code}`})`;
    this.deps.log.warn({ code, signal }, 'tor exited; restarting');
    if (this.deps.now() - running.startedAt > HEALTHY_RUN_MS) this.backoffMs = FIRST_BACKOFF_MS;
    const delay = this.backoffMs;
    this.backoffMs = Math.min(this.backoffMs * 2, MAX_BACKOFF_MS);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      void this.serial(async () => {
        if (this.running || !this.wantRunning || this.closed) return;
        await this.launch();
      }).catch((error: unknown) => {
        this.deps.log.warn({ err: errorName(error) }, 'tor restart failed');
        if (this.wantRunning && !this.closed && !this.running) {
          // Try again later, with the grown delay.
          this.restartTimer = setTimeout(() => void this.resumeAfterFailure(), this.backoffMs);
        }
      });
    }, delay);
  }

  private async resumeAfterFailure(): Promise<void> {
    this.restartTimer = null;
    await this.serial(async () => {
      if (this.running || !this.wantRunning || this.closed) return;
      this.backoffMs = Math.min(this.backoffMs * 2, MAX_BACKOFF_MS);
      await this.launch();
    }).catch(() => undefined);
  }

  private async halt(): Promise<void> {
    this.wantRunning = false;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    this.clearCircuitTimer();
    this.stopSelfTests();
    const running = this.running;
    this.running = null;
    this.networkEnabled = false;
    this.circuitEstablished = false;
    this.forgetSelfTest();
    this.bootstrapProgress = 0;
    this.invalidate();
    if (!running) return;
    running.control.close();
    await running.child.stop();
    this.deps.log.info({}, 'tor stopped');
  }

  private watchCircuitTimeout(): void {
    this.clearCircuitTimer();
    this.circuitTimer = setTimeout(() => {
      this.circuitTimer = null;
      if (this.networkEnabled && !this.circuitEstablished) {
        this.lastError = `No Tor circuit within ${TOR.circuitTimeoutMs / 1000} s`;
        this.deps.log.warn({}, 'tor connect timed out');
        this.invalidate();
      }
    }, TOR.circuitTimeoutMs);
    this.circuitTimer.unref();
  }

  private clearCircuitTimer(): void {
    if (this.circuitTimer) clearTimeout(this.circuitTimer);
    this.circuitTimer = null;
  }

  /** The onion address from the hidden-service folder, when tor has written a valid one. */
  private async onionAddress(): Promise<string | null> {
    try {
      const text = (await readFile(this.paths.hostname, 'utf8')).trim();
      return isOnionAddress(text) ? text : null;
    } catch {
      return null;
    }
  }

  private async readStatus(): Promise<TorAdminStatus> {
    const running = this.running;
    const onionAddress = await this.onionAddress();
    let circuits = 0;
    let bandwidth = { read: 0, written: 0 };
    if (running && !running.control.isClosed) {
      try {
        const info = await running.control.getInfo([
          'status/circuit-established',
          'status/bootstrap-phase',
          'circuit-status',
          'traffic/read',
          'traffic/written',
        ]);
        circuits = info['circuit-status']
          .split('\n')
          .filter((line) => / BUILT( |$)/.test(line)).length;
        bandwidth = { read: count(info['traffic/read']), written: count(info['traffic/written']) };
        this.noteCircuit(this.networkEnabled && info['status/circuit-established'] === '1');
        const progress = /PROGRESS=(\d{1,3})/.exec(info['status/bootstrap-phase']);
        if (progress && this.networkEnabled)
          this.bootstrapProgress = Math.min(100, Number(progress[1]));
      } catch (error) {
        this.lastError = `tor control: ${errorName(error)}`;
      }
    }
    const isRunning = running !== null && !running.child.hasExited;
    const [socksPortOpen, controlPortOpen] = isRunning
      ? await Promise.all([
          isPortOpen('127.0.0.1', this.deps.socksPort),
          isPortOpen('127.0.0.1', this.deps.controlPort),
        ])
      : [false, false];
    const connected = isRunning && this.networkEnabled && this.circuitEstablished;
    const state: TorState = !this.isAvailable
      ? 'unavailable'
      : !isRunning
        ? 'stopped'
        : !this.networkEnabled
          ? 'disconnected'
          : connected
            ? 'connected'
            : 'connecting';
    return {
      state,
      connected,
      circuits,
      bandwidth,
      hiddenServiceReachable: connected && this.hiddenServiceReachable,
      onionAddress,
      hiddenServiceCheckedAt:
        connected && this.hiddenServiceCheckedAt !== null
          ? new Date(this.hiddenServiceCheckedAt).toISOString()
          : null,
      bootstrapProgress: this.networkEnabled ? this.bootstrapProgress : 0,
      running: isRunning,
      socksPortOpen,
      controlPortOpen,
      hiddenServiceReady: isRunning && onionAddress !== null,
      uptime: running ? Math.max(0, Math.floor((this.deps.now() - running.startedAt) / 1000)) : 0,
      version: running?.version ?? null,
      socksPort: this.deps.socksPort,
      controlPort: this.deps.controlPort,
      servicePort: this.deps.appAddress()?.port ?? null,
      message: this.isAvailable ? this.lastError : TOR_TEXT.unavailable,
    };
  }
}

function count(value: string): number {
  return /^\d{1,15}$/.test(value) ? Number(value) : 0;
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : 'Error';
}
