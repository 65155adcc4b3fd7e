/**
 * The call without encoded transforms (issue 16): a browser that cannot encrypt frames end to end
 * is told so in the call window and does not join — no silent fallback to DTLS-SRTP only. Node
 * has no WebRTC, so it is such a browser.
 */
import { describe, expect, it } from 'vitest';
import { frameTransformSupport, VoiceCall } from '../../client/features/voice/voice-call.js';
import { DEFAULT_VOICE_SETTINGS } from '../../client/features/voice/voice-settings.js';

describe('a voice call where the browser has no encoded transforms', () => {
  it('says so, stays out of the call and asks for nothing', async () => {
    expect(frameTransformSupport()).toBe('none');
    const sent: unknown[] = [];
    let askedForServers = false;
    let madeWorker = false;
    const call = new VoiceCall({
      socket: {
        send: (frame) => sent.push(frame) > 0,
        on: () => () => undefined,
      },
      keys: {
        sendVoiceKey: () => Promise.resolve(true),
        onVoiceKey: () => () => undefined,
      },
      statusKeys: { signer: () => null, signerOf: () => null },
      roomId: 'room-1',
      selfNodeId: 'node-a',
      username: 'Agent7',
      settings: DEFAULT_VOICE_SETTINGS,
      getIceServers: () => {
        askedForServers = true;
        return Promise.resolve([]);
      },
      isTor: false,
      workletUrl: '/worklet.js',
      createWorker: () => {
        madeWorker = true;
        throw new Error('no worker in this test');
      },
    });
    await call.start();
    expect(call.getState()).toMatchObject({
      connection: 'disconnected',
      encryption: 'unsupported',
    });
    expect(call.getState().error).toMatch(/no encoded transforms.*not joined/);
    expect(sent).toEqual([]);
    expect(askedForServers).toBe(false);
    expect(madeWorker).toBe(false);
  });
});
