/** The messages feature: ephemeral room messages, their relay and their expiry. */
import type { Hub } from '../../realtime/hub.js';
import type { RoomChannels } from '../../realtime/room-channels.js';
import { MessageService, type MessageServiceDeps } from './service.js';
import { MemoryMessageStore, type EphemeralMessageStore } from './store.js';

export { EXPIRY_NOTICE_INTERVAL_MS, MessageService, MESSAGE_TEXT } from './service.js';
export {
  MemoryMessageStore,
  MAX_MESSAGES_PER_ROOM,
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
}

export function createMessagesFeature(deps: MessagesFeatureDeps) {
  const service = new MessageService({
    store: deps.store ?? new MemoryMessageStore(),
    channels: deps.channels,
    ttlSeconds: deps.ttlSeconds,
    now: deps.now,
    bindImage: deps.bindImage,
  });
  deps.hub.on('send_message', async (connection, frame) => {
    await service.send(connection, frame);
  });
  return { service };
}
