/**
 * The messages feature's front door: all that other features may import from it (docs/architecture.md,
 * "Client layers"). Anything else in this folder is private to it.
 */
export { resolveChatCommand } from './chat-commands.js';
export {
  afterExpiry,
  isLineShown,
  type ChatLine,
  type MessageLine,
  type SystemLevel,
} from './chat-line.js';
export { createMessageCipher } from './create-message-cipher.js';
export { MessageInput } from './MessageInput.js';
export { MessageList } from './MessageList.js';
export { PendingMessages, type PendingSend } from './PendingMessages.js';
export { PlaintextWarning } from './PlaintextWarning.js';
export { describeSimulation } from './simulation.js';
export { TypingIndicator } from './TypingIndicator.js';
export { useTypingSignal } from './use-typing-signal.js';
