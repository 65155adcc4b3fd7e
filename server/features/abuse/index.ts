/**
 * Abuse control over the socket: bot-like behaviour earns a Security Verification challenge
 * (bot_challenge, a proof of work whose cost grows with the visitor's recent challenges); until
 * it is answered the member cannot send; three wrong answers disconnect the socket
 * (bot_detected) and ban its visitor (server/lib/visitor.ts: the address, an IPv6 /64, the onion
 * circuit) for ten minutes. An expired challenge is replaced by a new one. Each challenge is
 * answered once: a right answer clears it. Screenshot alerts from browsers become a
 * SECURITY_SYSTEM message in the room.
 */
import type { ClientFrameType } from '../../../shared/protocol/ws/index.js';
import { AppError } from '../../errors.js';
import { visitorOfConnection } from '../../lib/visitor.js';
import type { Connection } from '../../realtime/connection.js';
import type { Hub } from '../../realtime/hub.js';
import { BotDetector, type BotSignal } from './bot-detector.js';
import { ChallengeIssuer, type Challenge } from './challenge.js';

export { BotDetector, BOT_LIMITS } from './bot-detector.js';
export {
  POW_BASE_MAXNUMBER,
  POW_GROWTH,
  POW_MAX_MAXNUMBER,
  POW_SIGNAL_WINDOW_MS,
  POW_TTL_MS,
  powDifficulty,
} from './challenge.js';

export const ABUSE_TEXT = {
  challenge:
    'Unusual activity detected. Your browser is solving a proof-of-work puzzle to continue.',
  pending: 'Complete the security verification first',
  success: 'Verification Successful',
  failed: (left: number) => `Incorrect answer. ${left} attempt${left === 1 ? '' : 's'} left.`,
  expired: 'Verification expired. A new puzzle was sent.',
  detected: 'Automated behaviour detected. Connection terminated.',
  noChallenge: 'No verification pending',
  screenshot: (username: string, method: string) =>
    `SECURITY ALERT: ${username} attempted a screenshot (${method})`,
} as const;

/** Close code for sockets ended as bots. */
export const BOT_CLOSE_CODE = 4008;
export const MAX_CHALLENGE_FAILURES = 3;
export const BOT_BAN_MS = 10 * 60_000;
/** One screenshot alert per connection in this many ms. */
export const ALERT_INTERVAL_MS = 10_000;

/** Frames refused while a challenge is pending. */
const BLOCKED_WHILE_PENDING: ReadonlySet<ClientFrameType> = new Set([
  'send_message',
  'typing_start',
  'join_room',
  'security_alert',
]);

interface AbuseState {
  detector: BotDetector;
  challenge: Challenge | null;
  failures: number;
  lastAlertAt: number;
}

/** Addresses banned as bots: in memory for one process, in Redis for many. */
export interface BanStore {
  ban(address: string, ms: number): Promise<void>;
  isBanned(address: string): Promise<boolean>;
}

export class MemoryBanStore implements BanStore {
  private readonly bans = new Map<string, number>();
  constructor(private readonly now: () => number) {}

  async ban(address: string, ms: number): Promise<void> {
    this.bans.set(address, this.now() + ms);
  }

  async isBanned(address: string): Promise<boolean> {
    const until = this.bans.get(address);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.bans.delete(address);
    return false;
  }
}

export interface AbuseFeatureDeps {
  bans?: BanStore;
  hub: Hub;
  now: () => number;
  /** Posts a server-written message to a room (the messages feature). */
  postSystemMessage: (roomId: string, content: string, senderUsername: string) => Promise<unknown>;
}

export function createAbuseFeature({
  hub,
  now,
  postSystemMessage,
  bans = new MemoryBanStore(now),
}: AbuseFeatureDeps) {
  const states = new WeakMap<Connection, AbuseState>();
  const issuer = new ChallengeIssuer(now);

  const stateOf = (connection: Connection): AbuseState => {
    let state = states.get(connection);
    if (!state) {
      state = {
        detector: new BotDetector(now),
        challenge: null,
        failures: 0,
        lastAlertAt: -Infinity,
      };
      states.set(connection, state);
    }
    return state;
  };

  const sendChallenge = (connection: Connection, state: AbuseState) => {
    state.challenge = issuer.issue(visitorOfConnection(connection));
    const { pow } = state.challenge;
    connection.send({
      type: 'bot_challenge',
      challengeId: state.challenge.challengeId,
      challenge: pow.challenge,
      message: ABUSE_TEXT.challenge,
      algorithm: pow.algorithm,
      salt: pow.salt,
      signature: pow.signature,
      maxnumber: pow.maxnumber,
    });
  };
  const challenge = (connection: Connection, state: AbuseState, signal: BotSignal) => {
    sendChallenge(connection, state);
    return signal;
  };

  hub.onConnect(async (connection) => {
    if (!(await bans.isBanned(visitorOfConnection(connection)))) return;
    connection.send({ type: 'bot_detected', message: ABUSE_TEXT.detected });
    connection.close(BOT_CLOSE_CODE, 'Banned');
  });

  hub.use((connection, type, frame, receivedAt) => {
    const state = stateOf(connection);
    if (state.challenge && BLOCKED_WHILE_PENDING.has(type)) {
      connection.send({ type: 'error', message: ABUSE_TEXT.pending, frameType: type });
      return false;
    }
    let signal: BotSignal | null = null;
    if (frame.type === 'send_message')
      signal = state.detector.onMessage(
        `${frame.content}\u0000${frame.encryptedContent ?? ''}`,
        receivedAt,
      );
    else if (frame.type === 'join_room') signal = state.detector.onJoin(receivedAt);
    if (!signal) return true;
    challenge(connection, state, signal);
    return false;
  });

  hub.on('bot_challenge_response', async (connection, frame) => {
    const state = stateOf(connection);
    if (!state.challenge || state.challenge.challengeId !== frame.challengeId) {
      throw new AppError('NO_CHALLENGE', 400, ABUSE_TEXT.noChallenge);
    }
    const refusal = issuer.check(state.challenge, frame.answer);
    if (refusal === 'expired') {
      connection.send({ type: 'bot_challenge_failed', message: ABUSE_TEXT.expired });
      sendChallenge(connection, state);
      return;
    }
    if (refusal === null) {
      state.challenge = null;
      state.failures = 0;
      state.detector.reset();
      connection.send({ type: 'bot_challenge_success', message: ABUSE_TEXT.success });
      return;
    }
    state.failures += 1;
    if (state.failures >= MAX_CHALLENGE_FAILURES) {
      await bans.ban(visitorOfConnection(connection), BOT_BAN_MS);
      connection.send({ type: 'bot_detected', message: ABUSE_TEXT.detected });
      connection.close(BOT_CLOSE_CODE, 'Bot detected');
      return;
    }
    connection.send({
      type: 'bot_challenge_failed',
      message: ABUSE_TEXT.failed(MAX_CHALLENGE_FAILURES - state.failures),
    });
  });

  hub.on('security_alert', async (connection, frame) => {
    const state = stateOf(connection);
    if (!connection.roomId || !connection.username) return;
    if (now() - state.lastAlertAt < ALERT_INTERVAL_MS) return;
    state.lastAlertAt = now();
    await postSystemMessage(
      connection.roomId,
      ABUSE_TEXT.screenshot(connection.username, frame.method),
      'SECURITY_SYSTEM',
    );
  });

  return { bans };
}
