/**
 * The voice test (spec 000 §4 "Voice test"): idle → recording (stops by itself after 3 s) →
 * recorded → playing preview, which plays the recording through the disguise worklet with the
 * current settings. The recording stays in this tab's memory and is dropped with the component.
 */
import { useEffect, useRef, useState } from 'react';
import { disguiseParams, type VoiceSettings } from './voice-settings.js';
import { VOICE_SAMPLE_RATE, VOICE_TEST_RECORDING_MS, VOICE_TEXT } from './voice-constants.js';
import { disguiseWorkletUrl } from './worklet-url.js';

export type VoiceTestState = 'idle' | 'recording' | 'recorded' | 'playing';

export interface VoiceTestProps {
  settings: VoiceSettings;
}

const STATE_TEXT: Record<VoiceTestState, string> = {
  idle: 'Record 3 seconds, then hear them with your current disguise.',
  recording: 'RECORDING... speak now',
  recorded: 'Recorded. Play the preview to hear the disguise.',
  playing: 'PLAYING PREVIEW...',
};

export function VoiceTest({ settings }: VoiceTestProps) {
  const [state, setState] = useState<VoiceTestState>('idle');
  const [error, setError] = useState<string | null>(null);
  const recording = useRef<AudioBuffer | null>(null);
  const context = useRef<AudioContext | null>(null);
  const stopTimer = useRef<number | null>(null);

  useEffect(
    () => () => {
      if (stopTimer.current !== null) window.clearTimeout(stopTimer.current);
      void context.current?.close().catch(() => undefined);
      recording.current = null;
    },
    [],
  );

  const audioContext = () => {
    // The buffer size setting, as in a call (voice-call.ts).
    context.current ??= new AudioContext({
      sampleRate: VOICE_SAMPLE_RATE,
      latencyHint: settings.bufferSize / VOICE_SAMPLE_RATE,
    });
    return context.current;
  };

  const record = async () => {
    setError(null);
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({
        audio: {
          channelCount: 1,
          sampleRate: VOICE_SAMPLE_RATE,
          echoCancellation: true,
          noiseSuppression: true,
          ...(settings.inputDeviceId ? { deviceId: settings.inputDeviceId } : {}),
        },
      });
    } catch (caught) {
      setError(
        caught instanceof DOMException && caught.name === 'NotAllowedError'
          ? VOICE_TEXT.microphoneDenied
          : VOICE_TEXT.startFailed,
      );
      return;
    }
    const recorder = new MediaRecorder(stream);
    const chunks: Blob[] = [];
    recorder.ondataavailable = (event) => chunks.push(event.data);
    recorder.onstop = () => {
      for (const track of stream.getTracks()) track.stop();
      void new Blob(chunks)
        .arrayBuffer()
        .then((bytes) => audioContext().decodeAudioData(bytes))
        .then(
          (buffer) => {
            recording.current = buffer;
            setState('recorded');
          },
          () => {
            setError('The recording could not be read back');
            setState('idle');
          },
        );
    };
    recorder.start();
    setState('recording');
    stopTimer.current = window.setTimeout(() => recorder.stop(), VOICE_TEST_RECORDING_MS);
  };

  const play = async () => {
    const buffer = recording.current;
    if (!buffer) return;
    const ctx = audioContext();
    try {
      await ctx.audioWorklet.addModule(disguiseWorkletUrl);
      const source = ctx.createBufferSource();
      source.buffer = buffer;
      const disguise = new AudioWorkletNode(ctx, 'voice-disguise', {
        outputChannelCount: [1],
        processorOptions: { params: disguiseParams(settings) },
      });
      source.connect(disguise).connect(ctx.destination);
      source.onended = () => {
        disguise.disconnect();
        setState('recorded');
      };
      await ctx.resume();
      source.start();
      setState('playing');
    } catch {
      setError('The preview could not be played');
    }
  };

  return (
    <section
      aria-label="Voice test"
      className="sc-panel space-y-2 p-4 font-mono"
      data-testid="voice-test"
    >
      <h2 className="text-xs tracking-[0.3em] text-primary uppercase">{'// Voice test'}</h2>
      <p
        className="text-xs text-muted"
        data-testid="voice-test-state"
        data-state={state}
        aria-live="polite"
      >
        {STATE_TEXT[state]}
      </p>
      {error ? (
        <p role="alert" className="text-xs text-danger">
          {error}
        </p>
      ) : null}
      <div className="flex gap-2">
        <button
          type="button"
          className="sc-btn px-2 py-1 text-xs"
          disabled={state === 'recording' || state === 'playing'}
          onClick={() => void record()}
          data-testid="voice-test-record"
        >
          [ RECORD 3 S ]
        </button>
        <button
          type="button"
          className="sc-btn px-2 py-1 text-xs"
          disabled={state !== 'recorded'}
          onClick={() => void play()}
          data-testid="voice-test-play"
        >
          [ PLAY PREVIEW ]
        </button>
      </div>
    </section>
  );
}
