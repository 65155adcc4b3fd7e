/**
 * Image upload admission (issue 15, item 2): an upload is judged on its headers before its body
 * is read (room session, declared size, quotas); quotas hold per member, per address and per
 * room besides the global cap, so one visitor cannot fill the store for everyone; an upload is
 * bound to the socket that uploaded it.
 */
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.js';
import { TestSocket } from '../support/ws-client.js';

const servers: TestServer[] = [];
const sockets: TestSocket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.close();
  for (const server of servers.splice(0)) await server.stop();
});

const MIB = 1024 * 1024;
let clockOffset = 0;
const now = () => Date.now() + clockOffset;

async function setup() {
  clockOffset = 0;
  const server = await startServer({ deps: { now } });
  servers.push(server);
  const roomId = (await server.rooms.defaultRoom()).secureId;
  let callsign = 100;
  /** A socket in the room, from `localAddress`, with its room grant. */
  const member = async (localAddress = '127.0.0.1') => {
    const socket = await TestSocket.connect(server.wsUrl(), { localAddress });
    sockets.push(socket);
    callsign += 1;
    socket.send({ type: 'join_room', roomId, username: `Ghost${callsign}` });
    const joined = await socket.nextOfType('room_joined');
    return { socket, grant: String(joined.accessToken) };
  };
  return { server, roomId, member };
}

/** The multipart body and its content type for an upload of `imageBytes` random bytes. */
async function uploadBody(roomId: string, imageBytes: number) {
  const form = new FormData();
  form.append('roomId', roomId);
  form.append('encryptedImage', new Blob([randomBytes(imageBytes)]), 'image.bin');
  const encoded = new Response(form);
  return {
    body: Buffer.from(await encoded.arrayBuffer()),
    contentType: encoded.headers.get('content-type')!,
  };
}

interface Answer {
  status: number;
  body: { error?: string; imageUrl?: string };
}

/**
 * Posts an upload over plain HTTP from `localAddress`. With `declaredLength` the request claims
 * that length but sends only the first 1 KiB of the body, then waits for the answer: an answer
 * proves the server decided without reading the body.
 */
function post(
  server: TestServer,
  options: {
    grant: string | null;
    body: Buffer;
    contentType: string;
    localAddress?: string;
    declaredLength?: number;
  },
): Promise<Answer> {
  const url = new URL('/api/secure-upload', server.baseUrl);
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        localAddress: options.localAddress ?? '127.0.0.1',
        headers: {
          'content-type': options.contentType,
          'content-length': String(options.declaredLength ?? options.body.byteLength),
          ...(options.grant ? { 'x-room-access': options.grant } : {}),
        },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => {
          request.destroy();
          resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as Answer['body'] });
        });
      },
    );
    request.on('error', reject);
    if (options.declaredLength !== undefined) request.write(options.body.subarray(0, 1024));
    else request.end(options.body);
  });
}

describe('upload admission before the body', { timeout: 120_000 }, () => {
  it('answers 413 to a declared oversized upload without waiting for its body', async () => {
    const { server, roomId, member } = await setup();
    const alice = await member();
    const { body, contentType } = await uploadBody(roomId, 1024);
    const answer = await post(server, {
      grant: alice.grant,
      body,
      contentType,
      declaredLength: 50 * MIB,
    });
    expect(answer).toEqual({ status: 413, body: { error: 'Image too large' } });
  });

  it('lets a browser sending a too-large image read the 413 instead of a broken pipe', async () => {
    const { server, roomId, member } = await setup();
    const alice = await member();
    const form = new FormData();
    form.append('roomId', roomId);
    form.append('encryptedImage', new Blob([randomBytes(14 * MIB)]), 'image.bin');
    const response = await fetch(`${server.baseUrl}/api/secure-upload`, {
      method: 'POST',
      body: form,
      headers: { 'x-room-access': alice.grant },
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: 'Image too large' });
    expect(await server.images.bytes()).toBe(0);
  });

  it('refuses without a room session before the body: no grant, an HTTP-only grant, a socket that left', async () => {
    const { server, roomId, member } = await setup();
    const { body, contentType } = await uploadBody(roomId, 1024);
    const refused = {
      status: 403,
      body: { error: 'Only members of this channel can share images here' },
    };
    const declaredLength = 5 * MIB;
    expect(await post(server, { grant: null, body, contentType, declaredLength })).toEqual(refused);

    // A grant bought over HTTP (no socket) lets one in to read, not to upload.
    const verified = await fetch(`${server.baseUrl}/api/rooms/${roomId}/verify-access`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password: 'x' }),
    });
    const httpGrant = String(((await verified.json()) as { accessToken: string }).accessToken);
    expect(await post(server, { grant: httpGrant, body, contentType, declaredLength })).toEqual(
      refused,
    );

    const gone = await member();
    gone.socket.close();
    await expect
      .poll(async () => (await server.presence.list((await server.rooms.defaultRoom()).id)).length)
      .toBe(0);
    expect(await post(server, { grant: gone.grant, body, contentType, declaredLength })).toEqual(
      refused,
    );
  });
});

describe('upload quotas', { timeout: 120_000 }, () => {
  it('stops one visitor at their quota while another visitor still uploads', async () => {
    const { server, roomId, member } = await setup();
    const flooder = await member('127.0.0.1');
    const { body, contentType } = await uploadBody(roomId, 10 * MIB);
    const statuses: number[] = [];
    // The attack: 25 uploads of 10 MiB by one anonymous visitor.
    for (let i = 0; i < 25; i += 1) {
      const answer = await post(server, { grant: flooder.grant, body, contentType });
      statuses.push(answer.status);
      if (answer.status !== 200)
        expect(answer.body).toEqual({
          error: 'Upload limit reached, try again once your images have expired',
        });
    }
    // 48 MiB per member: four 10 MiB uploads.
    expect(statuses.filter((status) => status === 200)).toHaveLength(4);
    expect(statuses.slice(4).every((status) => status === 429)).toBe(true);

    // More sockets from the same address share the address's 64 MiB: two more, then refused.
    const second = await member('127.0.0.1');
    const more = [];
    for (let i = 0; i < 3; i += 1)
      more.push((await post(server, { grant: second.grant, body, contentType })).status);
    expect(more).toEqual([200, 200, 429]);

    // Another visitor is unaffected.
    const bystander = await member('127.0.0.2');
    const answer = await post(server, {
      grant: bystander.grant,
      body,
      contentType,
      localAddress: '127.0.0.2',
    });
    expect(answer.status).toBe(200);
  });

  it('gives the quota back when an upload fails and when its image expires', async () => {
    const { server, roomId, member } = await setup();
    const alice = await member();
    const { body, contentType } = await uploadBody(roomId, 10 * MIB);
    // A failed upload (a field that would carry the key) reserves nothing for long.
    const keyed = new FormData();
    keyed.append('roomId', roomId);
    keyed.append('clientKey', 'c2VjcmV0');
    keyed.append('encryptedImage', new Blob([randomBytes(10 * MIB)]), 'image.bin');
    for (let i = 0; i < 6; i += 1) {
      const response = await fetch(`${server.baseUrl}/api/secure-upload`, {
        method: 'POST',
        body: keyed,
        headers: { 'x-room-access': alice.grant },
      });
      expect(response.status).toBe(400);
    }
    for (let i = 0; i < 4; i += 1)
      expect((await post(server, { grant: alice.grant, body, contentType })).status).toBe(200);
    expect((await post(server, { grant: alice.grant, body, contentType })).status).toBe(429);
    // Unbound uploads live one minute; then the member may upload again.
    clockOffset = 61_000;
    await server.images.expire(now());
    expect((await post(server, { grant: alice.grant, body, contentType })).status).toBe(200);
  });
});

describe('uploads bound to the uploader', { timeout: 120_000 }, () => {
  it("refuses another member's message pointing at someone else's upload", async () => {
    const { server, roomId, member } = await setup();
    const alice = await member();
    const mallory = await member();
    const { body, contentType } = await uploadBody(roomId, 1000);
    const uploaded = await post(server, { grant: alice.grant, body, contentType });
    expect(uploaded.status).toBe(200);
    const message = {
      type: 'send_message',
      content: '',
      encryptedContent: 'ZW5j',
      encryptionType: 'AES-256-GCM',
      hasImage: true,
      imageUrl: uploaded.body.imageUrl,
    };
    mallory.socket.send(message);
    expect((await mallory.socket.nextOfType('error')).message).toBe('Invalid image reference');
    alice.socket.send(message);
    expect(await alice.socket.nextOfType('new_message')).toBeTruthy();
  });
});
