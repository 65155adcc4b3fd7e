/** The messages feature: ephemeral room messages, their relay and their expiry. */
import type { FastifyBaseLogger } from 'fastify';
import { WS_ERROR } from '../../../shared/protocol/errors.js';
import { isAppError } from '../../errors.js';
import { errorForLog } from '../../lib/log-error.js';
import { isDependencyUnavailable } from '../../lib/unavailable.js';
import type { Hub } from '../../realtime/hub.js';
import type { RoomChannels } from '../../realtime/room-channels.js';
import { MessageService, type MessageServiceDeps } from './service.js';
import { MemoryMessageStore, type EphemeralMessageStore } from './store.js';

export { EXPIRY_NOTICE_INTERVAL_MS, MessageService, MESSAGE_TEXT } from './service.js';
export {
  DEFAULT_HELD_MESSAGE_BUDGET,
  heldBudgetRefusal,
  MemoryMessageStore,
  MAX_MESSAGES_PER_ROOM,
  type HeldMessageBudget,
  type EncodedMessage,
  type EphemeralMessageStore,
} from './store.js';

export interface MessagesFeatureDeps {
  hub: Hub;
  channels: RoomChannels;
  ttlSeconds: number;
  now: () => number;
  store?: EphemeralMessageStore;
  bindImage: MessageServiceDeps['bindImage'];
  /** Where a failure to relay a message through Redis is logged. */
  logger?: FastifyBaseLogger;
}

export function createMessagesFeature(deps: MessagesFeatureDeps) {
  const service = new MessageService({
    store: deps.store ?? new MemoryMessageStore(),
    channels: deps.channels,
    ttlSeconds: deps.ttlSeconds,
    now: deps.now,
    bindImage: deps.bindImage,
    // What the hub does with a handler's failure, for the relay that `send` no longer awaits. A
    // refusal (a held-bytes budget) is the sender's own error, as the hub would send it. A
    // message Redis did not take (it is away, or this process is degraded) is refused to its
    // sender with WS_ERROR.notRelayed: nothing is lost in silence (issue 35). The outage itself
    // is logged once (redis-health.ts), not per message.
    onRelayFailure: (connection, error) => {
      let message: string = WS_ERROR.internal;
      if (isAppError(error)) message = error.message;
      else if (isDependencyUnavailable(error)) message = WS_ERROR.notRelayed;
      else {
        deps.logger?.error(
          { nodeId: connection.nodeId, stage: 'send_message', err: errorForLog(error) },
          'realtime handler failed',
        );
      }
      const frame = { type: 'error', message, frameType: 'send_message' };
      connection.send(
        connection.path === '/ws' ? { ...frame, data: { message }, timestamp: deps.now() } : frame,
      );
    },
  });
  deps.hub.on('send_message', (connection, frame) => service.receive(connection, frame));
  return { service };
}
