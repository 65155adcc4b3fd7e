import { useCallback, useEffect, useState } from 'react';
import { STORAGE_KEYS } from './storage-keys.js';
import {
  SOUND_SETTINGS_EVENT,
  toSoundSettings,
  playSound,
  readSoundSettings,
  writeSoundSettings,
  type SoundKind,
  type SoundSettings,
} from './sounds.js';

export interface SoundSettingsState {
  settings: SoundSettings;
  /** Merges a change into the stored settings and saves them. */
  updateSettings: (change: Partial<SoundSettings>) => void;
  /** Plays a sound under the current settings. */
  play: (kind: SoundKind) => void;
}

/** The stored sound settings, kept in step with other components and other tabs. */
export function useSoundSettings(): SoundSettingsState {
  const [settings, setSettings] = useState<SoundSettings>(readSoundSettings);

  useEffect(() => {
    const reread = () => setSettings(readSoundSettings());
    const onStorage = (event: StorageEvent) => {
      if (event.key === STORAGE_KEYS.soundSettings) reread();
    };
    window.addEventListener(SOUND_SETTINGS_EVENT, reread);
    window.addEventListener('storage', onStorage);
    return () => {
      window.removeEventListener(SOUND_SETTINGS_EVENT, reread);
      window.removeEventListener('storage', onStorage);
    };
  }, []);

  const updateSettings = useCallback((change: Partial<SoundSettings>) => {
    // toSoundSettings brings whatever the caller passed back to valid values.
    const next = toSoundSettings({ ...readSoundSettings(), ...change });
    writeSoundSettings(next);
    setSettings(next);
  }, []);

  const play = useCallback((kind: SoundKind) => playSound(kind, settings), [settings]);

  return { settings, updateSettings, play };
}
