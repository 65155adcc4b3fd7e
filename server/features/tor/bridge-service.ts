/**
 * Bridge management (spec 000 §5): add, import, remove and test, each followed by a rewrite of
 * the torrc so that tor uses exactly the stored, active bridges.
 */
import { TOR } from '../../../shared/constants.js';
import {
  parseBridgeImport,
  TOR_TEXT,
  UNKNOWN_COUNTRY,
  type Bridge,
  type BridgeFields,
  type BridgeList,
  type BridgeTestResponse,
  type ImportBridgesResponse,
} from '../../../shared/protocol/http/tor.js';
import { AppError } from '../../errors.js';
import type { BridgeStore } from './bridges.js';
import { isPortOpen, splitAddress } from './probes.js';
import type { TorService } from './service.js';
import { TRANSPORTS } from './torrc.js';

export interface BridgeServiceDeps {
  store: BridgeStore;
  tor: TorService;
  hasBinary: (file: string) => boolean;
  /** How long a reachability test waits (spec 000 §9: 30 s). */
  testTimeoutMs?: number;
}

export class BridgeService {
  constructor(private readonly deps: BridgeServiceDeps) {}

  async list(): Promise<BridgeList> {
    return {
      bridges: await this.deps.store.list(),
      missingTransports: await this.deps.tor.missingTransports(),
    };
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
    await this.deps.tor.applyConfiguration();
  }

  /**
   * Tests one bridge: its transport binary must be installed; for obfs4 and webtunnel, whose
   * address is the bridge itself, a TCP connection must open within the test time. meek and
   * snowflake addresses are placeholders (the transport reaches a CDN front or a broker), so only
   * the transport is checked and the message says so.
   */
  async test(id: string): Promise<BridgeTestResponse> {
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
    const open = await isPortOpen(host, port, this.deps.testTimeoutMs ?? TOR.bridgeTestIntervalMs);
    return open
      ? { success: true, message: `${bridge.address} accepted a connection` }
      : { success: false, message: `${bridge.address} did not accept a connection` };
  }
}
