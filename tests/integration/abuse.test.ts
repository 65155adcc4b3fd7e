/**
 * Abuse control (spec 000 §4 "Bot challenge", §7): bursts, repeated frames and join floods earn a
 * Security Verification challenge; a right answer lets the member go on, three wrong ones end the
 * connection and ban the address. Screenshot alerts reach the room as SECURITY_SYSTEM messages.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { solvePowChallenge } from '../../shared/crypto/proof-of-work.js';
import { startServer, type TestServer } from '../support/server.js';
import { TestSocket, type Frame } from '../support/ws-client.js';

const servers: TestServer[] = [];
const sockets: TestSocket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.close();
  for (const server of servers.splice(0)) await server.stop();
});

async function setup() {
  const server = await startServer();
  servers.push(server);
  const roomId = (await server.rooms.defaultRoom()).secureId;
  const member = async (username: string) => {
    const socket = await TestSocket.connect(server.wsUrl());
    sockets.push(socket);
    socket.send({ type: 'join_room', roomId, username });
    await socket.nextOfType('room_joined');
    return socket;
  };
  return { server, roomId, member };
}

const text = (content: string) => ({ type: 'send_message', content, encryptionType: 'PLAINTEXT' });

/** Does the work a browser does: searches for the proof-of-work number. */
async function answerOf(challenge: Frame): Promise<string> {
  const number = await solvePowChallenge({
    challenge: String(challenge.challenge),
    salt: String(challenge.salt),
    maxnumber: Number(challenge.maxnumber),
  });
  if (number === null) throw new Error('unsolvable challenge');
  return String(number);
}

describe('abuse control', () => {
  it('challenges a burst, blocks sending until answered, and lets the member go on after a right answer', async () => {
    const { member } = await setup();
    const bot = await member('Unit31');
    const bystander = await member('Unit32');
    for (let i = 0; i < 34; i += 1) bot.send(text(`burst ${i}`));
    const challenge = await bot.nextOfType('bot_challenge');
    expect(challenge).toMatchObject({
      algorithm: 'SHA-256',
      challenge: expect.stringMatching(/^[0-9a-f]{64}$/),
      salt: expect.stringMatching(/^[0-9a-f]{24}\?expires=\d+$/),
      signature: expect.stringMatching(/^[0-9a-f]{64}$/),
      maxnumber: 100_000,
    });
    bot.send(text('while pending'));
    expect(
      await bot.next(
        (frame) =>
          frame.type === 'error' && frame.message === 'Complete the security verification first',
      ),
    ).toBeTruthy();

    bot.send({ type: 'bot_challenge_response', challengeId: challenge.challengeId, answer: '-1' });
    expect(await bot.nextOfType('bot_challenge_failed')).toMatchObject({
      message: 'Incorrect answer. 2 attempts left.',
    });
    const answer = await answerOf(challenge);
    bot.send({ type: 'bot_challenge_response', challengeId: challenge.challengeId, answer });
    expect(await bot.nextOfType('bot_challenge_success')).toMatchObject({
      message: 'Verification Successful',
    });
    // A solution is good once.
    bot.send({ type: 'bot_challenge_response', challengeId: challenge.challengeId, answer });
    expect(
      await bot.next(
        (frame) => frame.type === 'error' && frame.message === 'No verification pending',
      ),
    ).toBeTruthy();
    bot.send(text('back to normal'));
    expect(
      await bystander.next(
        (frame) =>
          frame.type === 'new_message' &&
          (frame.message as { content: string }).content === 'back to normal',
      ),
    ).toBeTruthy();
  });

  it('asks four times the work of an address each time it earns another challenge', async () => {
    const { member } = await setup();
    const first = await member('Unit41');
    for (let i = 0; i < 34; i += 1) first.send(text(`burst a ${i}`));
    const easy = await first.nextOfType('bot_challenge');
    const second = await member('Unit42');
    for (let i = 0; i < 34; i += 1) second.send(text(`burst b ${i}`));
    const harder = await second.nextOfType('bot_challenge');
    expect(Number(harder.maxnumber)).toBe(4 * Number(easy.maxnumber));
  });

  it('never challenges ten messages a second', async () => {
    const { member } = await setup();
    const human = await member('Agent33');
    for (let second = 0; second < 3; second += 1) {
      for (let i = 0; i < 10; i += 1) human.send(text(`fast but human ${second}-${i}`));
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    for (let i = 0; i < 30; i += 1) await human.nextOfType('new_message');
    expect(
      human.frames.filter((frame) => frame.type === 'bot_challenge' || frame.type === 'error'),
    ).toEqual([]);
  });

  it('challenges the same frame replayed and a join flood', async () => {
    const { member, roomId } = await setup();
    const replayer = await member('Ghost34');
    for (let i = 0; i < 4; i += 1)
      replayer.send({
        type: 'send_message',
        content: '',
        encryptedContent: 'c2FtZQ==',
        encryptionType: 'AES-256-GCM',
      });
    expect(await replayer.nextOfType('bot_challenge')).toBeTruthy();

    const joiner = await member('Ghost35');
    for (let i = 0; i < 7; i += 1) joiner.send({ type: 'join_room', roomId, username: 'Ghost35' });
    expect(await joiner.nextOfType('bot_challenge')).toBeTruthy();
  });

  it('disconnects and bans after three wrong answers', async () => {
    const { server, member } = await setup();
    const bot = await member('Shadow36');
    for (let i = 0; i < 36; i += 1) bot.send(text(`spam ${i}`));
    const challenge = await bot.nextOfType('bot_challenge');
    const closed = bot.waitForClose();
    for (let i = 0; i < 3; i += 1)
      bot.send({
        type: 'bot_challenge_response',
        challengeId: challenge.challengeId,
        answer: '-1',
      });
    expect(await bot.nextOfType('bot_detected')).toMatchObject({
      message: 'Automated behaviour detected. Connection terminated.',
    });
    expect(await closed).toBe(4008);

    const again = await TestSocket.connect(server.wsUrl());
    sockets.push(again);
    expect(await again.nextOfType('bot_detected')).toBeTruthy();
    expect(await again.waitForClose()).toBe(4008);
  });

  it('turns a screenshot alert into a SECURITY_SYSTEM message, at most one per ten seconds', async () => {
    const { member } = await setup();
    const alice = await member('Cipher37');
    const bob = await member('Cipher38');
    alice.send({
      type: 'security_alert',
      alertType: 'screenshot_attempt',
      method: 'print_screen',
      timestamp: Date.now(),
    });
    alice.send({
      type: 'security_alert',
      alertType: 'screenshot_attempt',
      method: 'print_screen',
      timestamp: Date.now(),
    });
    const alert = await bob.next(
      (frame) =>
        frame.type === 'new_message' &&
        (frame.message as { senderUsername: string }).senderUsername === 'SECURITY_SYSTEM',
    );
    expect(alert.message).toMatchObject({
      isSystem: true,
      content: 'SECURITY ALERT: Cipher37 attempted a screenshot (print_screen)',
    });
    bob.send({ type: 'request_user_list' });
    await bob.nextOfType('user_list_update');
    expect(bob.frames.filter((frame) => frame.type === 'new_message')).toEqual([]);
  });
});
