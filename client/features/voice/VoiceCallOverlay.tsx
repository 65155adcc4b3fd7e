/**
 * The running call (spec 000 §2 "Voice-call overlay"), loaded lazily when a call starts: owns one
 * VoiceCall for as long as it is mounted, feeds it the saved settings, and shows the window.
 * Unmounting leaves the call and releases everything.
 */
import { useEffect, useState, useSyncExternalStore } from 'react';
import { type RoomKeyManager } from '../e2ee/index.js';
import { useNow } from '../../lib/use-now.js';
import { isOnionHost } from '../../lib/privacy/connection-privacy.js';
import { toast } from '../../ui/use-toast.js';
import { statusKeysOf } from './call-encryption-status.js';
import { fetchIceServers } from './ice-servers.js';
import { getVoiceSettings, useVoiceSettings } from './use-voice-settings.js';
import { VoiceCall, type CallSocket } from './voice-call.js';
import { VoiceCallWindow } from './VoiceCallWindow.js';
import { disguiseWorkletUrl } from './worklet-url.js';

export interface VoiceCallOverlayProps {
  socket: CallSocket;
  /** The room's E2E channel: frame keys travel in it, `encryption_status` is signed with it. */
  keys: Pick<
    RoomKeyManager,
    'sendVoiceKey' | 'onVoiceKey' | 'keys' | 'room' | 'members' | 'now' | 'trustOf'
  >;
  roomId: string;
  selfNodeId: string;
  username: string;
  onClose: () => void;
}

export default function VoiceCallOverlay(props: VoiceCallOverlayProps) {
  const { socket, keys, roomId, selfNodeId, username } = props;
  const [call] = useState(
    () =>
      new VoiceCall({
        socket,
        keys,
        statusKeys: statusKeysOf(keys),
        roomId,
        selfNodeId,
        username,
        settings: getVoiceSettings(),
        getIceServers: () => fetchIceServers(roomId),
        isTor: isOnionHost(window.location.hostname),
        workletUrl: disguiseWorkletUrl,
        createWorker: () =>
          new Worker(new URL('./frame-crypto-worker.ts', import.meta.url), {
            type: 'module',
            name: 'voice-frame-crypto',
          }),
        onStartFailed: (text) => toast({ title: text, variant: 'destructive' }),
      }),
  );
  const state = useSyncExternalStore(call.subscribe, call.getState);
  const [settings, setSettings] = useVoiceSettings();
  const now = useNow(1_000, state.joinedAt !== null);

  useEffect(() => {
    void call.start();
    return () => call.close();
  }, [call]);

  useEffect(() => call.updateSettings(settings), [call, settings]);

  return (
    <VoiceCallWindow
      state={state}
      selfNodeId={selfNodeId}
      now={now}
      isDisguised={call.isDisguised}
      onToggleMute={() => call.toggleMute()}
      onToggleDeafen={() => call.toggleDeafen()}
      onToggleEncryption={() => {
        const enabled = state.encryption === 'off';
        setSettings({ ...settings, encryption: enabled });
        call.setEncryption(enabled);
      }}
      onClose={props.onClose}
    />
  );
}
