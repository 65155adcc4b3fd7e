/**
 * A MessageService for unit tests: 30 s lifetime, the wall clock and images that bind, unless the
 * test says otherwise.
 */
import { MessageService } from '../../server/features/messages/index.js';
import type { MessageServiceDeps } from '../../server/features/messages/service.js';

export function testMessageService(
  deps: Pick<MessageServiceDeps, 'store' | 'channels'> & Partial<MessageServiceDeps>,
): MessageService {
  return new MessageService({
    ttlSeconds: 30,
    now: () => Date.now(),
    bindImage: async () => true,
    ...deps,
  });
}
