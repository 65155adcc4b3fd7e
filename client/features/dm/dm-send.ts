/**
 * The two ways a message leaves this browser (spec 001 §4–§7): encrypted to a thread's key and
 * posted, then announced to the other participant with `dm_send_message`; and, for a new
 * conversation, the thread opened first (its key wrapped here to both participants).
 */
import { encryptDirectMessage } from '../../../shared/crypto/dm/thread-key.js';
import { type KeyFile } from '../../../shared/crypto/key-file-schema.js';
import { type DmThread } from '../../../shared/protocol/http/dm.js';
import { type SendFrame } from '../admin/admin-socket.js';
import { createThread, fetchRecipientKey, postMessage } from './dm-api.js';
import { threadRequest } from './dm-crypto.js';
import { messageExpiry } from './dm-time.js';
import { type ThreadKeyring } from './thread-keyring.js';

/** Encrypts `text`, posts it with the chosen expiry and announces it. Throws on any failure. */
export async function sendToThread(
  thread: DmThread,
  text: string,
  timerSeconds: number,
  keyring: ThreadKeyring,
  send: SendFrame,
): Promise<void> {
  const threadKey = await keyring.open(thread);
  const sealed = await encryptDirectMessage(text, threadKey);
  await postMessage(thread.id, { ...sealed, expiresAt: messageExpiry(Date.now(), timerSeconds) });
  // The message is stored; a socket that is down only delays the other side's refresh.
  send({
    type: 'dm_send_message',
    threadId: thread.id,
    recipientKeyId: thread.otherParticipantKeyId,
  });
}

/**
 * Opens (or finds) the conversation with `recipientKeyId`: the recipient's key is fetched and its
 * signature verified, a fresh thread key is wrapped to both sides when both have encryption keys,
 * and the server's thread is returned. Throws RecipientKeyUnverifiedError or an HttpError.
 */
export async function openConversation(
  recipientKeyId: string,
  keyFile: KeyFile | null,
): Promise<DmThread> {
  const recipient = await fetchRecipientKey(recipientKeyId);
  const body = await threadRequest(recipient, keyFile);
  return (await createThread(body)).thread;
}
