/**
 * The voice feature's front door: all that other features may import from it (docs/architecture.md,
 * "Client layers"). Anything else in this folder is private to it.
 */
export { AudioDevicesPanel } from './AudioDevicesPanel.js';
export { useRoomCallSize } from './use-room-call.js';
export { useVoiceSettings } from './use-voice-settings.js';
export { VoiceDisguisePanel } from './VoiceDisguisePanel.js';
export { VoiceTest } from './VoiceTest.js';

/** Loads VoiceCallOverlay.tsx on demand: it keeps a chunk of its own. */
export function loadVoiceCallOverlay() {
  return import('./VoiceCallOverlay.js');
}
