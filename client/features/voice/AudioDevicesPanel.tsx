/**
 * The audio interface part of the audio settings dialog (spec 000 §2, §5): microphone and
 * speaker from `enumerateDevices`, the call volume 0..1 in steps of 0.1, and the audio buffer
 * size (1024..16384 frames, powers of two; spec 000 §9), the next call's AudioContext latency
 * hint. Device names are shown once the browser reveals them (after microphone permission).
 */
import { useEffect, useId, useState } from 'react';
import { VOICE_BUFFER_SIZES, VOICE_SAMPLE_RATE, VOLUME_RANGE } from './voice-constants.js';
import { VoiceBufferSizeSchema, type VoiceSettings } from './voice-settings.js';

export interface AudioDevicesPanelProps {
  settings: VoiceSettings;
  onChange: (next: VoiceSettings) => void;
}

interface DeviceOption {
  deviceId: string;
  label: string;
}

function useAudioDevices(): { inputs: DeviceOption[]; outputs: DeviceOption[] } {
  const [devices, setDevices] = useState<MediaDeviceInfo[]>([]);
  useEffect(() => {
    const media = navigator.mediaDevices;
    if (!media?.enumerateDevices) return;
    let isCurrent = true;
    const load = () =>
      void media.enumerateDevices().then(
        (list) => isCurrent && setDevices(list),
        () => undefined,
      );
    load();
    media.addEventListener('devicechange', load);
    return () => {
      isCurrent = false;
      media.removeEventListener('devicechange', load);
    };
  }, []);
  const options = (kind: MediaDeviceKind) =>
    devices
      .filter((device) => device.kind === kind && device.deviceId !== '')
      .map((device, index) => ({
        deviceId: device.deviceId,
        label: device.label || `${kind === 'audioinput' ? 'Microphone' : 'Speaker'} ${index + 1}`,
      }));
  return { inputs: options('audioinput'), outputs: options('audiooutput') };
}

export function AudioDevicesPanel({ settings, onChange }: AudioDevicesPanelProps) {
  const id = useId();
  const { inputs, outputs } = useAudioDevices();
  const volumePercent = Math.round(settings.volume * 100);
  const select = (
    key: 'inputDeviceId' | 'outputDeviceId',
    label: string,
    options: DeviceOption[],
  ) => (
    <div className="flex items-center gap-3">
      <label htmlFor={`${id}-${key}`} className="w-24 text-xs tracking-[0.2em] text-fg uppercase">
        {label}
      </label>
      <select
        id={`${id}-${key}`}
        value={settings[key] ?? ''}
        data-testid={`voice-${key === 'inputDeviceId' ? 'input' : 'output'}-device`}
        onChange={(event) => onChange({ ...settings, [key]: event.currentTarget.value || null })}
        className="min-w-0 flex-1 border border-border bg-background px-2 py-1 text-xs text-fg"
      >
        <option value="">System default</option>
        {options.map((option) => (
          <option key={option.deviceId} value={option.deviceId}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
  return (
    <section
      aria-label="Audio interface"
      className="sc-panel space-y-3 p-4 font-mono"
      data-testid="audio-devices-panel"
    >
      <h2 className="text-xs tracking-[0.3em] text-primary uppercase">{'// Audio interface'}</h2>
      {select('inputDeviceId', 'Microphone', inputs)}
      {select('outputDeviceId', 'Speaker', outputs)}
      <div className="flex items-center gap-3">
        <label htmlFor={`${id}-volume`} className="w-24 text-xs tracking-[0.2em] text-fg uppercase">
          Call volume
        </label>
        <input
          id={`${id}-volume`}
          type="range"
          min={VOLUME_RANGE.min}
          max={VOLUME_RANGE.max}
          step={VOLUME_RANGE.step}
          value={settings.volume}
          aria-valuetext={`${volumePercent}%`}
          data-testid="voice-volume"
          onChange={(event) => onChange({ ...settings, volume: Number(event.currentTarget.value) })}
          className="h-1 flex-1 cursor-pointer accent-primary"
        />
        <span aria-hidden="true" className="w-10 text-right text-xs text-muted tabular-nums">
          {volumePercent}%
        </span>
      </div>
      <div className="flex items-center gap-3">
        <label htmlFor={`${id}-buffer`} className="w-24 text-xs tracking-[0.2em] text-fg uppercase">
          Buffer
        </label>
        <select
          id={`${id}-buffer`}
          value={settings.bufferSize}
          data-testid="voice-buffer-size"
          aria-describedby={`${id}-buffer-hint`}
          onChange={(event) => {
            const parsed = VoiceBufferSizeSchema.safeParse(Number(event.currentTarget.value));
            if (parsed.success) onChange({ ...settings, bufferSize: parsed.data });
          }}
          className="min-w-0 flex-1 border border-border bg-background px-2 py-1 text-xs text-fg"
        >
          {VOICE_BUFFER_SIZES.map((size) => (
            <option key={size} value={size}>
              {size} frames ({Math.round((size / VOICE_SAMPLE_RATE) * 1000)} ms)
            </option>
          ))}
        </select>
      </div>
      <p id={`${id}-buffer-hint`} className="text-xs text-muted">
        Larger buffers play steadier on a slow device and add delay; applies from the next call.
      </p>
    </section>
  );
}
