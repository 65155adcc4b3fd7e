/**
 * Bridge management (spec 000 §5): add, import, remove and test, each followed by a rewrite of
 * the torrc so that tor uses exactly the stored, active bridges. While tor runs every stored
 * bridge is tested every 30 s (spec 000 §9 "bridge test interval 30 s"); the last result of each
 * (periodic or asked for) is kept in memory and listed with the bridge.
 */
import { BlockList, isIP } from 'node:net';
import { TOR } from '../../../shared/constants.js';
import {
  parseBridgeImport,
  TOR_TEXT,
  UNKNOWN_COUNTRY,
  type Bridge,
  type BridgeFields,
  type BridgeList,
  type BridgeTestResponse,
  type BridgeTestResult,
  type ImportBridgesResponse,
} from '../../../shared/protocol/http/tor.js';
import { AppError } from '../../errors.js';
import type { BridgeStore } from './bridges.js';
import { isPortOpen, splitAddress } from './probes.js';
import type { TorService } from './service.js';
import { TRANSPORTS } from './torrc.js';

/** Addresses set aside for documentation (RFC 5737, RFC 3849): never a bridge, never dialled. */
const DOCUMENTATION_RANGES = (() => {
  const list = new BlockList();
  list.addSubnet('192.0.2.0', 24, 'ipv4');
  list.addSubnet('198.51.100.0', 24, 'ipv4');
  list.addSubnet('203.0.113.0', 24, 'ipv4');
  list.addSubnet('2001:db8::', 32, 'ipv6');
  return list;
})();

function isDocumentationAddress(host: string): boolean {
  const family = isIP(host);
  if (family === 0) return false;
  return DOCUMENTATION_RANGES.check(host, family === 4 ? 'ipv4' : 'ipv6');
}

export interface BridgeServiceDeps {
  store: BridgeStore;
  tor: TorService;
  hasBinary: (file: string) => boolean;
  /** How long a reachability test waits (spec 000 §9: 30 s). */
  testTimeoutMs?: number;
  now: () => number;
}

export class BridgeService {
  readonly #lastTests = new Map<string, BridgeTestResult>();
  #timer: ReturnType<typeof setInterval> | null = null;
  #isTesting = false;

  constructor(private readonly deps: BridgeServiceDeps) {}

  async list(): Promise<BridgeList> {
    const bridges = await this.deps.store.list();
    return {
      bridges: bridges.map((bridge) => ({
        ...bridge,
        lastTest: this.#lastTests.get(bridge.id) ?? null,
      })),
      missingTransports: await this.deps.tor.missingTransports(),
    };
  }

  /** Tests every stored bridge every `intervalMs` while tor runs, until stopPeriodicTests(). */
  startPeriodicTests(intervalMs: number = TOR.bridgeTestIntervalMs): void {
    this.#timer ??= setInterval(() => {
      if (this.deps.tor.isRunning) void this.testAll();
    }, intervalMs);
    this.#timer.unref();
  }

  stopPeriodicTests(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  /** Tests every stored bridge once (one round at a time); failures are recorded, never thrown. */
  async testAll(): Promise<void> {
    if (this.#isTesting) return;
    this.#isTesting = true;
    try {
      const bridges = await this.deps.store.list();
      await Promise.all(bridges.map((bridge) => this.test(bridge.id).catch(() => undefined)));
    } catch {
      // The store is unavailable (PostgreSQL outage): the next round tries again.
    } finally {
      this.#isTesting = false;
    }
  }

  /** Adds one bridge; a duplicate (same type, address, fingerprint) is answered with the stored one. */
  async add(bridge: BridgeFields & { country: string }): Promise<Bridge> {
    const [created] = await this.deps.store.add([bridge]);
    await this.deps.tor.applyConfiguration();
    if (created) return created;
    const existing = (await this.deps.store.list()).find(
      (row) =>
        row.type === bridge.type &&
        row.address === bridge.address &&
        row.fingerprint === bridge.fingerprint,
    );
    if (!existing) throw new AppError('BRIDGE_NOT_STORED', 500, 'Bridge could not be stored');
    return existing;
  }

  /** Imports one bridge a line; none valid is a 400 with the spec's text. */
  async import(config: string): Promise<ImportBridgesResponse> {
    const parsed = parseBridgeImport(config);
    if (parsed.bridges.length === 0) {
      throw new AppError('NO_VALID_BRIDGES', 400, TOR_TEXT.noValidBridges);
    }
    const created = await this.deps.store.add(
      parsed.bridges.map((bridge) => ({ ...bridge, country: UNKNOWN_COUNTRY })),
    );
    await this.deps.tor.applyConfiguration();
    return { imported: created.length, rejected: parsed.rejected, bridges: created };
  }

  async remove(id: string): Promise<void> {
    if (!(await this.deps.store.remove(id))) {
      throw new AppError('BRIDGE_NOT_FOUND', 404, TOR_TEXT.bridgeNotFound);
    }
    this.#lastTests.delete(id);
    await this.deps.tor.applyConfiguration();
  }

  /**
   * Tests one bridge: its transport binary must be installed; for obfs4 and webtunnel, whose
   * address is the bridge itself, a TCP connection must open within the test time. meek and
   * snowflake addresses are placeholders (the transport reaches a CDN front or a broker), so only
   * the transport is checked and the message says so.
   */
  async test(id: string): Promise<BridgeTestResponse> {
    const result = await this.#probe(id);
    this.#lastTests.set(id, { ...result, testedAt: new Date(this.deps.now()).toISOString() });
    return result;
  }

  async #probe(id: string): Promise<BridgeTestResponse> {
    const bridge = await this.deps.store.find(id);
    if (!bridge) throw new AppError('BRIDGE_NOT_FOUND', 404, TOR_TEXT.bridgeNotFound);
    const transport = TRANSPORTS[bridge.type];
    if (!this.deps.hasBinary(transport.binary)) {
      return { success: false, message: `Transport ${transport.binary} is not installed` };
    }
    if (bridge.type === 'meek' || bridge.type === 'snowflake') {
      return {
        success: true,
        message: `${transport.binary} is installed; ${bridge.type} reachability is shown by Tor's bootstrap once connected`,
      };
    }
    const { host, port } = splitAddress(bridge.address);
    if (isDocumentationAddress(host)) {
      return {
        success: false,
        message: `${bridge.address} is a documentation address, never a real bridge: not tested`,
      };
    }
    const open = await isPortOpen(host, port, this.deps.testTimeoutMs ?? TOR.bridgeTestIntervalMs);
    return open
      ? { success: true, message: `${bridge.address} accepted a connection` }
      : { success: false, message: `${bridge.address} did not accept a connection` };
  }
}
