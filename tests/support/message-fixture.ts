/** A relayed room message for client-side tests: a plaintext one, with the fields a test names. */
import type { Message } from '../../shared/protocol/ws/chat.js';

export function messageFixture(fields: Partial<Message> = {}): Message {
  return {
    id: 'm1',
    senderId: 'n1',
    senderUsername: 'Agent1',
    roomId: 'r1',
    content: 'hello',
    encryptedContent: null,
    encryptionType: 'PLAINTEXT',
    signature: null,
    isStealthMode: false,
    hasImage: false,
    imageUrl: null,
    thumbnailUrl: null,
    imageMetadata: null,
    createdAt: '2030-01-01T00:00:00.000Z',
    expiresAt: '2030-01-01T00:00:30.000Z',
    isSystem: false,
    ...fields,
  };
}
