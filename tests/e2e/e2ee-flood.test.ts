/**
 * A member flooding key announcements cannot make another member's message leave unencrypted
 * (issue 14, "Checked by").
 *
 * Scenario: alice and bob chat in the public channel in two browsers. mallory, a hostile member
 * running the real client classes in Node, joins and alternates two valid key bundles as fast as
 * her socket takes them. While she floods, alice sends a text. Everything the server's hub
 * receives is captured: alice's message reaches the server encrypted (never PLAINTEXT, `content`
 * empty), bob reads it decrypted, and mallory's flood was cut off with an error frame.
 */
import { describe, expect, it } from 'vitest';
import { signBundle } from '../../client/features/e2ee/bundle-identity.js';
import { SessionKeys } from '../../client/features/e2ee/session-keys.js';
import { NodeMember } from '../adversary/support/node-member.js';
import { ChatPageObject } from './pages/chat-page.js';
import { waitForKeysFrom } from './pages/security-status.js';
import { browserSuite, newActor } from './support/browser.js';

const PUBLIC = { securechannel_access_mode: 'public' };

describe('key announcement flood', () => {
  const suite = browserSuite();

  it("cannot make another member's message leave unencrypted", async () => {
    const { server } = suite;
    const received: { type: string; frame: Record<string, unknown> }[] = [];
    server.hub.use((_connection, type, frame) => {
      received.push({ type, frame: frame as Record<string, unknown> });
      return true;
    });
    const alice = await newActor(suite.browser, 'alice', { storage: PUBLIC });
    const bob = await newActor(suite.browser, 'bob', { storage: PUBLIC });
    suite.actors.push(alice, bob);
    await alice.page.goto(`${server.baseUrl}/`);
    const aliceChat = new ChatPageObject(alice.page);
    await aliceChat.waitUntilJoined();
    await bob.page.goto(`${server.baseUrl}/chat/${aliceChat.secureId()}`);
    const bobChat = new ChatPageObject(bob.page);
    await bobChat.waitUntilJoined();
    // The flood starts once alice and bob hold each other's keys, so what it could break is there.
    await waitForKeysFrom(bob.page, aliceChat);

    const mallory = await NodeMember.join({
      url: server.wsUrl(),
      baseUrl: server.baseUrl,
      roomId: aliceChat.secureId(),
      username: 'Agent666',
    });
    try {
      const binding = { roomId: aliceChat.secureId(), nodeId: mallory.nodeId };
      const random = (count: number) => crypto.getRandomValues(new Uint8Array(count));
      const spare = await SessionKeys.generate(random, Date.now());
      const bundles = [
        await signBundle(mallory.manager.keys!.unsignedBundle(), binding, null),
        await signBundle(spare.unsignedBundle(), binding, null),
      ];
      for (let index = 0; index < 60; index++) {
        mallory.send({ type: 'key_announce', bundle: bundles[index % 2] });
      }
      const text = `flood-proof ${Date.now().toString(36)}`;
      await aliceChat.send(text);
      await bobChat.message(text).waitFor();
      expect(await bobChat.message(text).getByTestId('plaintext-tag').count()).toBe(0);

      const sent = received.filter((item) => item.type === 'send_message');
      expect(sent.length).toBeGreaterThanOrEqual(1);
      for (const { frame } of sent) {
        expect(frame.encryptionType).not.toBe('PLAINTEXT');
        expect(frame.encryptionType).not.toBe('none');
        expect(frame.content).toBe('');
        expect(JSON.stringify(frame)).not.toContain(text);
      }
      await mallory.waitFor(() =>
        mallory.errors.includes('Too many key announcements: wait before announcing again'),
      );
    } finally {
      mallory.close();
    }
  }, 180_000);
});
