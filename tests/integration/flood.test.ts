/**
 * Flood (issue 15, "Checked by"): one visitor (127.0.0.1) floods sockets, joins and uploads while
 * another (127.0.0.2) chats and shares an image. The flooder runs into the per-address socket
 * cap, the join-flood challenge and its upload quota; the other visitor notices nothing.
 * Loopback only; every loop is bounded, so the test stops by itself.
 */
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { type MemoryAccessGrantStore } from '../../server/features/rooms/index.js';
import { startServer, type TestServer } from '../support/server.js';
import { TestSocket } from '../support/ws-client.js';

const servers: TestServer[] = [];
const sockets: TestSocket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.close();
  for (const server of servers.splice(0)) await server.stop();
});

const MIB = 1024 * 1024;
const SOCKET_CAP = 8;

/** Posts an upload of `imageBytes` random bytes from `localAddress`; resolves with the status and body. */
async function upload(
  server: TestServer,
  roomId: string,
  grant: string,
  imageBytes: number,
  localAddress: string,
): Promise<{ status: number; body: { imageUrl?: string; error?: string } }> {
  const form = new FormData();
  form.append('roomId', roomId);
  form.append('encryptedImage', new Blob([randomBytes(imageBytes)]), 'image.bin');
  const encoded = new Response(form);
  const body = Buffer.from(await encoded.arrayBuffer());
  return new Promise((resolve, reject) => {
    const request = http.request(
      new URL('/api/secure-upload', server.baseUrl),
      {
        method: 'POST',
        localAddress,
        headers: {
          'content-type': encoded.headers.get('content-type')!,
          'content-length': String(body.byteLength),
          'x-room-access': grant,
        },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as never }),
        );
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

describe('one visitor flooding, another chatting', { timeout: 300_000 }, () => {
  it("keeps the second visitor's chat and uploads working", async () => {
    const server = await startServer({ env: { MAX_SOCKETS_PER_ADDRESS: String(SOCKET_CAP) } });
    servers.push(server);
    const roomId = (await server.rooms.defaultRoom()).secureId;
    const grants = server.shared.grants as MemoryAccessGrantStore;

    // The second visitor and a reader, both from 127.0.0.2.
    const join = async (username: string, localAddress: string) => {
      const socket = await TestSocket.connect(server.wsUrl(), { localAddress });
      sockets.push(socket);
      socket.send({ type: 'join_room', roomId, username });
      return { socket, grant: String((await socket.nextOfType('room_joined')).accessToken) };
    };
    const bob = await join('Agent201', '127.0.0.2');
    const reader = await join('Agent202', '127.0.0.2');

    const flood = async () => {
      // Sockets: 3 × the cap, all at once.
      const opened = await Promise.all(
        Array.from({ length: SOCKET_CAP * 3 }, () =>
          TestSocket.connect(server.wsUrl(), { localAddress: '127.0.0.1' }).then(
            (socket) => (sockets.push(socket), socket),
            () => null,
          ),
        ),
      );
      const mine = opened.filter((socket): socket is TestSocket => socket !== null);
      // Joins: 20 on each socket, as fast as they go.
      for (const socket of mine)
        for (let i = 0; i < 20; i += 1)
          socket.send({ type: 'join_room', roomId, username: `Ghost${300 + i}` });
      const challenged = await Promise.all(
        mine.map((socket) => socket.nextOfType('bot_challenge', 60_000).then(() => true)),
      );
      // Uploads: 6 MiB each, four per socket from three of its sockets' grants.
      const flooderGrants = mine
        .map((socket) => socket.frames.find((frame) => frame.type === 'room_joined'))
        .filter((frame) => frame !== undefined)
        .map((frame) => String(frame.accessToken));
      const uploads = [];
      for (const grant of flooderGrants.slice(0, 3))
        for (let i = 0; i < 4; i += 1)
          uploads.push(upload(server, roomId, grant, 6 * MIB, '127.0.0.1'));
      return { mine, challenged, uploads: await Promise.all(uploads) };
    };

    const chat = async () => {
      const seen: string[] = [];
      for (let i = 0; i < 5; i += 1) {
        const content = `still here ${i}`;
        bob.socket.send({ type: 'send_message', content, encryptionType: 'PLAINTEXT' });
        const frame = await reader.socket.next(
          (f) => f.type === 'new_message' && (f.message as { content: string }).content === content,
          60_000,
        );
        seen.push((frame.message as { content: string }).content);
      }
      const uploaded = await upload(server, roomId, bob.grant, 10 * MIB, '127.0.0.2');
      expect(uploaded.status).toBe(200);
      bob.socket.send({
        type: 'send_message',
        content: 'a picture',
        encryptionType: 'PLAINTEXT',
        hasImage: true,
        imageUrl: uploaded.body.imageUrl,
      });
      const withImage = await reader.socket.next(
        (f) => f.type === 'new_message' && (f.message as { hasImage: boolean }).hasImage,
        60_000,
      );
      return { seen, imageUrl: (withImage.message as { imageUrl: string }).imageUrl };
    };

    const [flooded, chatted] = await Promise.all([flood(), chat()]);

    // The second visitor noticed nothing.
    expect(chatted.seen).toEqual([0, 1, 2, 3, 4].map((i) => `still here ${i}`));
    const image = await fetch(`${server.baseUrl}${chatted.imageUrl}`, {
      headers: { 'x-room-access': reader.grant },
    });
    expect(image.status).toBe(200);
    expect((await image.arrayBuffer()).byteLength).toBe(10 * MIB);

    // The flooder got its share and no more.
    expect(flooded.mine.length).toBe(SOCKET_CAP);
    expect(flooded.challenged.every(Boolean)).toBe(true);
    const accepted = flooded.uploads.filter((answer) => answer.status === 200);
    expect(accepted.length).toBeGreaterThan(0);
    expect(accepted.length * 6 * MIB).toBeLessThanOrEqual(64 * MIB);
    expect(flooded.uploads.filter((answer) => answer.status === 429).length).toBeGreaterThan(0);
    // Joins handed out one grant per socket and room, not one per join.
    expect(grants.size).toBeLessThanOrEqual(2 + SOCKET_CAP);
  });
});
