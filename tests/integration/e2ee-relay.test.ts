/**
 * The server side of end-to-end encryption (docs/crypto-room.md): it relays key bundles and
 * pairwise sender-key envelopes to the right members only, serves entropy, a PFS key exchange and
 * the certificate fingerprint, and stores encrypted images it cannot open.
 */
import { createECDH, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  PfsExchangeResponseSchema,
  EntropyResponseSchema,
} from '../../shared/protocol/http/security.js';
import { UploadResponseSchema } from '../../shared/protocol/http/images.js';
import { startServer, type TestServer } from '../support/server.js';
import { TestSocket } from '../support/ws-client.js';

const b64 = (length: number) => randomBytes(length).toString('base64');
const bundle = () => ({
  v: 1,
  ecdh: b64(65),
  kem: b64(1184),
  rsa: b64(294),
  sig: b64(1952),
  createdAt: Date.now(),
});
const envelope = () => ({
  v: 1,
  kind: 'hybrid',
  kemCiphertext: b64(1088),
  iv: b64(12),
  ciphertext: b64(120),
});

describe('end-to-end encryption support on the server', () => {
  let server: TestServer;
  let clockOffset = 0;
  let roomId: string;
  const sockets: TestSocket[] = [];
  const now = () => Date.now() + clockOffset;

  beforeAll(async () => {
    server = await startServer({ deps: { now }, env: { MESSAGE_TTL_SECONDS: '30' } });
    roomId = (await server.rooms.defaultRoom()).secureId;
  });
  afterAll(async () => {
    await server.stop();
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.close();
    clockOffset = 0;
  });

  async function member(username: string) {
    const socket = await TestSocket.connect(server.wsUrl());
    sockets.push(socket);
    socket.send({ type: 'join_room', roomId, username });
    const joined = await socket.nextOfType('room_joined');
    const bundles = await socket.nextOfType('key_bundles');
    return {
      socket,
      nodeId: joined.nodeId as string,
      grant: joined.accessToken as string,
      bundles,
    };
  }

  it('relays bundles to the room and gives newcomers every current bundle', async () => {
    const alice = await member('Agent41');
    const aliceBundle = bundle();
    alice.socket.send({ type: 'key_announce', bundle: aliceBundle });
    const bob = await member('Agent42');
    const known = bob.bundles.bundles as { nodeId: string; bundle: unknown }[];
    expect(known.find((entry) => entry.nodeId === alice.nodeId)?.bundle).toEqual(aliceBundle);
    const bobBundle = bundle();
    bob.socket.send({ type: 'key_announce', bundle: bobBundle });
    expect(await alice.socket.nextOfType('key_announce')).toMatchObject({
      fromNodeId: bob.nodeId,
      username: 'Agent42',
      bundle: bobBundle,
    });
    expect(bob.socket.frames.some((frame) => frame.type === 'key_announce')).toBe(false);

    bob.socket.close();
    await alice.socket.next((frame) => frame.type === 'user_left' && frame.nodeId === bob.nodeId);
    const carol = await member('Agent43');
    expect(
      (carol.bundles.bundles as { nodeId: string }[]).map((entry) => entry.nodeId),
    ).not.toContain(bob.nodeId);
  });

  it('hands a sender-key envelope to its addressee only', async () => {
    const alice = await member('Agent44');
    const bob = await member('Agent45');
    const carol = await member('Agent46');
    const sealed = envelope();
    alice.socket.send({ type: 'sender_key', targetNodeId: bob.nodeId, envelope: sealed });
    expect(await bob.socket.nextOfType('sender_key')).toEqual({
      type: 'sender_key',
      fromNodeId: alice.nodeId,
      envelope: sealed,
    });
    carol.socket.send({ type: 'request_user_list' });
    await carol.socket.nextOfType('user_list_update');
    expect(carol.socket.frames.some((frame) => frame.type === 'sender_key')).toBe(false);
    alice.socket.send({ type: 'sender_key', targetNodeId: 'node_nobody', envelope: sealed });
    expect((await alice.socket.nextOfType('error')).message).toBe(
      'That member is not in this room',
    );
  });

  it('refuses malformed bundles without touching other members', async () => {
    const alice = await member('Agent47');
    alice.socket.send({ type: 'key_announce', bundle: { ...bundle(), kem: 'not base64 !!' } });
    expect((await alice.socket.nextOfType('error')).message).toBe('Invalid key_announce frame');
    alice.socket.send({ type: 'key_announce', bundle: { ...bundle(), privateKey: b64(32) } });
    expect((await alice.socket.nextOfType('error')).message).toBe('Invalid key_announce frame');
  });

  it('serves fresh entropy with the PBKDF2 parameters', async () => {
    const ask = async () =>
      EntropyResponseSchema.parse(
        await (
          await fetch(`${server.baseUrl}/api/key-exchange/entropy`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{"requestEntropy":true}',
          })
        ).json(),
      );
    const [first, second] = [await ask(), await ask()];
    expect(first.serverEntropy).toHaveLength(64);
    expect(first.serverEntropy).not.toBe(second.serverEntropy);
    expect(first.iterations).toBe(100_000);
  });

  it('performs a real ECDH exchange, confirms it, and rotates the server key every 30 minutes', async () => {
    const exchange = async () => {
      const client = createECDH('prime256v1');
      client.generateKeys();
      const response = await fetch(`${server.baseUrl}/api/pfs/exchange`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          clientPublicKey: client.getPublicKey().toString('base64'),
          clientKeyId: 'client-1',
        }),
      });
      const body = PfsExchangeResponseSchema.parse(await response.json());
      const secret = client.computeSecret(Buffer.from(body.serverPublicKey, 'base64'));
      const confirmKey = Buffer.from(
        hkdfSync('sha256', secret, Buffer.alloc(0), 'securechannel/v1/pfs/confirm', 32),
      );
      expect(createHmac('sha256', confirmKey).update('client-1').digest('base64')).toBe(
        body.confirmation,
      );
      return body;
    };
    const first = await exchange();
    expect((await exchange()).serverKeyId).toBe(first.serverKeyId);
    clockOffset = 30 * 60_000;
    const rotated = await exchange();
    expect(rotated.serverKeyId).not.toBe(first.serverKeyId);
    expect(server.pfs.liveKeyIds()).toEqual([rotated.serverKeyId, first.serverKeyId]);
    clockOffset = 40 * 60_000 + 1;
    expect(server.pfs.liveKeyIds()).toEqual([rotated.serverKeyId]);
    const bad = await fetch(`${server.baseUrl}/api/pfs/exchange`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientPublicKey: b64(65), clientKeyId: 'x' }),
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'PFS key exchange failed' });
  });

  describe('encrypted images', () => {
    function uploadForm(options: {
      image: Uint8Array;
      thumbnail?: Uint8Array;
      extra?: Record<string, string>;
    }) {
      const form = new FormData();
      form.append('roomId', roomId);
      form.append('mimeType', 'image/png');
      for (const [name, value] of Object.entries(options.extra ?? {})) form.append(name, value);
      form.append('encryptedImage', new Blob([Buffer.from(options.image)]), 'blob');
      if (options.thumbnail)
        form.append('encryptedThumbnail', new Blob([Buffer.from(options.thumbnail)]), 'blob');
      return form;
    }
    const upload = (form: FormData, grant: string | null) =>
      fetch(`${server.baseUrl}/api/secure-upload`, {
        method: 'POST',
        body: form,
        headers: grant ? { 'x-room-access': grant } : {},
      });

    it('stores ciphertext for members, serves it back to members only, and deletes it with its message', async () => {
      const alice = await member('Agent48');
      const ciphertext = randomBytes(5000);
      const thumbnail = randomBytes(300);
      const response = await upload(uploadForm({ image: ciphertext, thumbnail }), alice.grant);
      expect(response.status).toBe(200);
      const uploaded = UploadResponseSchema.parse(await response.json());
      const fetchImage = (url: string, grant: string | null) =>
        fetch(`${server.baseUrl}${url}`, { headers: grant ? { 'x-room-access': grant } : {} });
      expect(
        Buffer.from(await (await fetchImage(uploaded.imageUrl, alice.grant)).arrayBuffer()),
      ).toEqual(ciphertext);
      expect(
        Buffer.from(await (await fetchImage(uploaded.thumbnailUrl!, alice.grant)).arrayBuffer()),
      ).toEqual(thumbnail);
      expect((await fetchImage(uploaded.imageUrl, null)).status).toBe(403);

      alice.socket.send({
        type: 'send_message',
        content: '',
        encryptedContent: 'ZW5j',
        encryptionType: 'AES-256-GCM',
        hasImage: true,
        imageUrl: uploaded.imageUrl,
        thumbnailUrl: uploaded.thumbnailUrl,
      });
      await alice.socket.nextOfType('new_message');
      clockOffset = 29_000;
      await server.images.expire(now());
      expect((await fetchImage(uploaded.imageUrl, alice.grant)).status).toBe(200);
      clockOffset = 31_000;
      await server.images.expire(now());
      expect((await fetchImage(uploaded.imageUrl, alice.grant)).status).toBe(404);
      expect(await server.images.bytes()).toBe(0);
    });

    it('refuses image keys, non-members and oversized files, storing nothing', async () => {
      const alice = await member('Agent49');
      const image = randomBytes(100);
      const before = await server.images.bytes();
      const keyed = await upload(
        uploadForm({ image, extra: { clientKey: 'c2VjcmV0' } }),
        alice.grant,
      );
      expect(keyed.status).toBe(400);
      expect(await keyed.json()).toEqual({ error: 'Image keys must never be sent to the server' });
      expect((await upload(uploadForm({ image }), null)).status).toBe(403);
      const huge = await upload(
        uploadForm({ image: randomBytes(10 * 1024 * 1024 + 2048) }),
        alice.grant,
      );
      expect(huge.status).toBe(413);
      expect(await server.images.bytes()).toBe(before);
    });

    it('refuses a message that points at an image of another room or none', async () => {
      const alice = await member('Agent50');
      alice.socket.send({
        type: 'send_message',
        content: '',
        encryptedContent: 'ZW5j',
        encryptionType: 'AES-256-GCM',
        hasImage: true,
        imageUrl: '/api/secure-images/AAAAAAAAAAAAAAAAAAAAAAAA',
      });
      expect((await alice.socket.nextOfType('error')).message).toBe('Invalid image reference');
    });
  });
});
