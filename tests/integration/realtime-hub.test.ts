/**
 * The hub's boundary: every frame is size-checked, parsed and schema-checked before a handler sees
 * it; bad frames get an error frame and touch only their sender.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.js';
import { TestSocket } from '../support/ws-client.js';

describe.each(['/chat-ws', '/ws'])('hub on %s', (path) => {
  let server: TestServer;
  let roomId: string;
  beforeAll(async () => {
    server = await startServer();
    roomId = (await server.rooms.defaultRoom()).secureId;
  });

  /** A member of the default room: request_user_list then always has an answer. */
  async function member() {
    const client = await TestSocket.connect(server.wsUrl(path));
    client.send({ type: 'join_room', roomId, username: 'Agent7' });
    await client.nextOfType('room_joined');
    await client.nextOfType('user_list_update');
    return client;
  }
  afterAll(async () => {
    await server.stop();
  });

  it('answers unparseable JSON with an error frame and stays connected', async () => {
    const client = await member();
    client.send('{"type": "join_room",');
    expect(await client.nextOfType('error')).toMatchObject({
      message: 'Malformed frame: not valid JSON',
    });
    client.send({ type: 'request_user_list' });
    expect(await client.nextOfType('user_list_update')).toBeTruthy();
    client.close();
  });

  it('answers an unknown type and a frame without a type with "Unknown frame type"', async () => {
    const client = await TestSocket.connect(server.wsUrl(path));
    client.send({ type: 'launch_missiles' });
    expect(await client.nextOfType('error')).toMatchObject({ message: 'Unknown frame type' });
    client.send({ hello: 'world' });
    expect(await client.nextOfType('error')).toMatchObject({ message: 'Unknown frame type' });
    client.send([1, 2, 3]);
    expect(await client.nextOfType('error')).toMatchObject({ message: 'Unknown frame type' });
    client.send(null);
    expect(await client.nextOfType('error')).toMatchObject({ message: 'Unknown frame type' });
    client.send({ type: 'constructor' });
    expect(await client.nextOfType('error')).toMatchObject({ message: 'Unknown frame type' });
    client.close();
  });

  it('names the frame type when its payload fails the schema, without echoing the payload', async () => {
    const client = await TestSocket.connect(server.wsUrl(path));
    client.send({ type: 'join_room', roomId: 42, username: '<script>alert(1)</script>' });
    const error = await client.nextOfType('error');
    expect(error).toMatchObject({ message: 'Invalid join_room frame', frameType: 'join_room' });
    expect(JSON.stringify(error)).not.toContain('script');
    client.close();
  });

  it('refuses a valid frame whose feature is not handled here', async () => {
    const client = await TestSocket.connect(server.wsUrl(path));
    client.send({
      type: 'dm_send_message',
      threadId: 't1',
      recipientKeyId: `SCK${'a'.repeat(32)}`,
    });
    expect(await client.nextOfType('error')).toMatchObject({ frameType: 'dm_send_message' });
    client.close();
  });

  it('rejects a 70 KiB frame and keeps the sender connected', async () => {
    const client = await member();
    client.send(JSON.stringify({ type: 'request_user_list', padding: 'x'.repeat(70 * 1024) }));
    expect(await client.nextOfType('error')).toMatchObject({ message: 'Frame too large' });
    client.send({ type: 'request_user_list' });
    expect(await client.nextOfType('user_list_update')).toBeTruthy();
    client.close();
  });

  it('closes a socket that sends a frame above the 1 MiB hard cap with 1009', async () => {
    const client = await TestSocket.connect(server.wsUrl(path));
    client.send('x'.repeat(1024 * 1024 + 10));
    expect(await client.waitForClose()).toBe(1009);
  });

  it('cuts off a flood with one error frame, then closes it with 1008, while others are unaffected', async () => {
    const flooder = await member();
    const bystander = await member();
    // The flood goes on until the server ends it: on a loaded machine the frames can arrive spread
    // out enough for the bucket to refill between them, so a fixed count would not prove the cut.
    const closed = flooder.waitForClose(20_000);
    let open = true;
    void closed.finally(() => (open = false)).catch(() => undefined);
    for (let sent = 0; open && sent < 20_000; sent += 100) {
      for (let i = 0; i < 100; i += 1) flooder.send({ type: 'request_user_list' });
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await closed).toBe(1008);
    expect(
      flooder.frames.some(
        (frame) => frame.type === 'error' && frame.message === 'Rate limit exceeded: slow down',
      ),
    ).toBe(true);
    bystander.send({ type: 'request_user_list' });
    expect(await bystander.nextOfType('user_list_update')).toBeTruthy();
    bystander.close();
  });

  it('never limits ten frames a second from one client', async () => {
    const client = await member();
    for (let second = 0; second < 3; second += 1) {
      for (let i = 0; i < 10; i += 1) client.send({ type: 'request_user_list' });
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    for (let i = 0; i < 30; i += 1) await client.nextOfType('user_list_update');
    expect(client.frames.filter((frame) => frame.type === 'error')).toEqual([]);
    client.close();
  });
});

describe('graceful shutdown', () => {
  it('closes open sockets with 1001 when the server stops', async () => {
    const server = await startServer();
    const client = await TestSocket.connect(server.wsUrl());
    const closed = client.waitForClose();
    await server.stop();
    expect(await closed).toBe(1001);
  });
});
