/**
 * The /simulation command (spec 000 §2 "messages starting /simulation carry the session token",
 * §3 `isSimulated`, §4 "simulation messages 60 s"). The spec shows only that a key holder's
 * /simulation is special and that its messages live 60 s; a careful product never lets invented
 * traffic pass for real (docs/decisions.md). So the drill runs on this screen only, sends nothing,
 * and every line is labelled SIMULATION: it replays what an eavesdropper on the relay holds of
 * this channel right now (each message's encryption type, ciphertext size and random node id),
 * taken from the real messages on screen, never their text.
 */
import { type ChatLine } from './chat-line.js';

/** How many of the newest messages the drill replays. */
export const SIMULATION_MESSAGE_COUNT = 3;

export const SIMULATION_TEXT = {
  intro:
    'Interception drill: what the relay (or anyone who taps it) holds of this channel right now. Shown to you only; nothing is sent.',
  empty: 'Relay view: no transmissions are stored for this channel right now.',
  end: 'End of drill: the relay holds no key and no plaintext; every line above self-destructs in 60 s.',
  refused: 'SIMULATION requires authentication with a premium key, use /get-key to obtain access.',
} as const;

/** The drill's lines, from the message lines on screen (newest last). */
export function describeSimulation(lines: readonly ChatLine[]): string[] {
  const relayed = lines
    .filter((line) => line.kind === 'message' && !line.message.isSystem)
    .slice(-SIMULATION_MESSAGE_COUNT);
  const views = relayed.map((line) => {
    if (line.kind !== 'message') return '';
    const { message } = line;
    const size = (message.encryptedContent ?? message.content).length;
    return message.encryptedContent === null
      ? `Relay view: node ${message.senderId} sent ${size} characters IN CLEAR (PLAINTEXT, confirmed by its sender).`
      : `Relay view: node ${message.senderId} sent ${size} characters of ${message.encryptionType} ciphertext, no key to open it.`;
  });
  return [
    SIMULATION_TEXT.intro,
    ...(views.length > 0 ? views : [SIMULATION_TEXT.empty]),
    SIMULATION_TEXT.end,
  ];
}
