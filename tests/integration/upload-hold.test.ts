/**
 * An upload's quota hold bounds its time in flight (issue 31): an upload whose body trickles in
 * is cut when its hold ends (shortened here to 1.5 s), answered 408 and closed, and its hold is
 * given back at once, so an address never has more bytes in flight than its quota. A whole
 * upload from the same address then goes through.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { IMAGE_TEXT, type MemoryUploadQuota } from '../../server/features/images/index.js';
import { startServer, type TestServer } from '../support/server.js';
import { TestSocket } from '../support/ws-client.js';

const servers: TestServer[] = [];
const sockets: TestSocket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.close();
  for (const server of servers.splice(0)) await server.stop();
});

const MIB = 1024 * 1024;
const HOLD_MS = 1_500;

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

interface Outcome {
  status: number | null;
  text: string;
  closedAfterMs: number;
}

/**
 * Sends an upload's first 64 KiB at once, then 1 KiB every 50 ms for as long as the server lets
 * it; resolves with the answer (if any) once the connection is closed.
 */
function trickle(
  server: TestServer,
  upload: { body: Buffer; contentType: string; grant: string },
): Promise<Outcome> {
  const started = Date.now();
  return new Promise((resolve) => {
    let status: number | null = null;
    let text = '';
    const request = http.request(new URL('/api/secure-upload', server.baseUrl), {
      method: 'POST',
      localAddress: '127.0.0.1',
      headers: {
        'content-type': upload.contentType,
        'content-length': String(upload.body.byteLength),
        'x-room-access': upload.grant,
      },
    });
    request.on('response', (response) => {
      status = response.statusCode ?? null;
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
    });
    request.on('error', () => undefined);
    let sent = 64 * 1024;
    request.write(upload.body.subarray(0, sent));
    const timer = setInterval(() => {
      if (request.destroyed || sent + 1024 >= upload.body.byteLength) return;
      request.write(upload.body.subarray(sent, sent + 1024));
      sent += 1024;
    }, 50);
    request.on('close', () => {
      clearInterval(timer);
      resolve({ status, text, closedAfterMs: Date.now() - started });
    });
  });
}

describe('an upload trickling past its hold', { timeout: 120_000 }, () => {
  it('is cut when its hold ends, and its quota comes back at once', async () => {
    const server = await startServer({ deps: { uploadHoldMs: HOLD_MS } });
    servers.push(server);
    const roomId = (await server.rooms.defaultRoom()).secureId;
    const socket = await TestSocket.connect(server.wsUrl(), { localAddress: '127.0.0.1' });
    sockets.push(socket);
    socket.send({ type: 'join_room', roomId, username: 'Ghost101' });
    const grant = String((await socket.nextOfType('room_joined')).accessToken);
    const quota = server.shared.uploadQuota as MemoryUploadQuota;
    const upload = await uploadBody(roomId, 6 * MIB);

    const slow = trickle(server, { ...upload, grant });
    // While it is in flight its declared size is held against the address.
    await expect.poll(() => quota.usage('a:127.0.0.1').bytes).toBe(upload.body.byteLength);

    const outcome = await slow;
    expect(outcome.closedAfterMs).toBeGreaterThanOrEqual(HOLD_MS - 100);
    expect(outcome.closedAfterMs).toBeLessThan(HOLD_MS + 3_000);
    expect(outcome.status).toBe(408);
    expect(JSON.parse(outcome.text)).toEqual({ error: IMAGE_TEXT.tooSlow });
    expect(quota.usage('a:127.0.0.1')).toEqual({ bytes: 0, count: 0 });
    expect(quota.usage('g')).toEqual({ bytes: 0, count: 0 });

    // The same address uploads a whole image right after.
    const whole = await fetch(`${server.baseUrl}/api/secure-upload`, {
      method: 'POST',
      headers: { 'content-type': upload.contentType, 'x-room-access': grant },
      body: upload.body,
    });
    expect(whole.status).toBe(200);
  });
});
