/**
 * The voice settings of this browser as React state: one store for the page, so the audio
 * settings dialog and a running call see the same values; every change is saved.
 */
import { useSyncExternalStore } from 'react';
import { loadVoiceSettings, saveVoiceSettings, type VoiceSettings } from './voice-settings.js';

let current: VoiceSettings | null = null;
const listeners = new Set<() => void>();

export function getVoiceSettings(): VoiceSettings {
  current ??= loadVoiceSettings();
  return current;
}

export function setVoiceSettings(next: VoiceSettings): void {
  current = next;
  saveVoiceSettings(next);
  for (const listener of [...listeners]) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useVoiceSettings(): [VoiceSettings, (next: VoiceSettings) => void] {
  const settings = useSyncExternalStore(subscribe, getVoiceSettings);
  return [settings, setVoiceSettings];
}
