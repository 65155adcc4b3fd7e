/**
 * The measured voice disguise (issue 16): Chromium's fake microphone plays a 220 Hz tone from a
 * WAV file (`--use-file-for-fake-audio-capture`); in the page the captured track runs through the
 * built disguise worklet (dist/client/assets/disguise-worklet-*.js) with a preset's settings, and
 * the fundamental of what comes out is measured by autocorrelation (tests/support/pitch.ts):
 * "deep" (−12) halves it, "cipher" (+8) multiplies it by 2^(8/12), formant-only settings leave it,
 * each within 3 %. The worklet is served from a bare 127.0.0.1 page, so no app server is needed.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DisguiseParams } from '../../client/features/voice/disguise-dsp.js';
import {
  applyPreset,
  DEFAULT_VOICE_SETTINGS,
  disguiseParams,
  type PresetId,
} from '../../client/features/voice/voice-settings.js';
import { fundamentalHz, sine, wavFile } from '../support/pitch.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './support/browser.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const RATE = 48_000;
const TONE_HZ = 220;

function builtWorklet(): string {
  const assets = path.join(ROOT, 'dist/client/assets');
  // The bundler may also give a shared chunk of the app this name: the worklet is the file that
  // registers the processor.
  const sources = readdirSync(assets)
    .filter((name) => /^disguise-worklet-.*\.js$/.test(name))
    .map((name) => readFileSync(path.join(assets, name), 'utf8'));
  const worklet = sources.find((source) => source.includes('registerProcessor('));
  if (!worklet) throw new Error('dist/client has no disguise worklet: run `npm run build` first');
  return worklet;
}

describe('voice disguise, measured in Chromium', () => {
  let dir: string;
  let browser: Browser;
  let server: Server;
  let baseUrl: string;
  let page: Page;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'voice-tone-'));
    const wav = path.join(dir, 'tone.wav');
    writeFileSync(wav, wavFile(sine(TONE_HZ, 10, RATE, 0.5), RATE));
    const worklet = builtWorklet();
    server = createServer((request, response) => {
      if (request.url === '/worklet.js') {
        response.writeHead(200, { 'content-type': 'text/javascript' });
        response.end(worklet);
      } else {
        response.writeHead(200, { 'content-type': 'text/html' });
        response.end('<!doctype html><title>disguise probe</title>');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    baseUrl = `http://127.0.0.1:${address.port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: [
        ...CHROMIUM_ARGS,
        '--use-fake-ui-for-media-stream',
        '--use-fake-device-for-media-stream',
        `--use-file-for-fake-audio-capture=${wav}`,
        '--autoplay-policy=no-user-gesture-required',
      ],
    });
    page = await browser.newPage();
    await page.goto(`${baseUrl}/`);
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Input and output fundamentals of 0.68 s of audio, 2.5 s after the graph started. */
  async function measure(params: DisguiseParams): Promise<{ input: number; output: number }> {
    const captured = await page.evaluate(async (disguise) => {
      const stream = await navigator.mediaDevices.getUserMedia({
        audio: {
          channelCount: 1,
          echoCancellation: false,
          noiseSuppression: false,
          autoGainControl: false,
        },
      });
      const context = new AudioContext({ sampleRate: 48_000 });
      await context.audioWorklet.addModule('/worklet.js');
      const source = context.createMediaStreamSource(stream);
      const node = new AudioWorkletNode(context, 'voice-disguise', {
        outputChannelCount: [1],
        processorOptions: { params: disguise },
      });
      const before = context.createAnalyser();
      const after = context.createAnalyser();
      before.fftSize = 32768;
      after.fftSize = 32768;
      const silent = context.createGain();
      silent.gain.value = 0;
      source.connect(before);
      source.connect(node).connect(after).connect(silent).connect(context.destination);
      await context.resume();
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      const input = new Float32Array(32768);
      const output = new Float32Array(32768);
      before.getFloatTimeDomainData(input);
      after.getFloatTimeDomainData(output);
      for (const track of stream.getTracks()) track.stop();
      await context.close();
      return { input: Array.from(input), output: Array.from(output), rate: context.sampleRate };
    }, params);
    return {
      input: fundamentalHz(captured.input, captured.rate),
      output: fundamentalHz(captured.output, captured.rate),
    };
  }

  const preset = (id: PresetId) => disguiseParams(applyPreset(DEFAULT_VOICE_SETTINGS, id));

  it('hears the fake microphone at 220 Hz', async () => {
    const { input, output } = await measure(preset('none'));
    expect(Math.abs(input / TONE_HZ - 1)).toBeLessThan(0.03);
    expect(Math.abs(output / TONE_HZ - 1)).toBeLessThan(0.03);
  });

  it('"deep" (−12 semitones) halves the fundamental within 3 %', async () => {
    const { input, output } = await measure(preset('deep'));
    expect(Math.abs(output / (input / 2) - 1)).toBeLessThan(0.03);
  });

  it('"cipher" (+8 semitones) raises the fundamental by 2^(8/12) within 3 %', async () => {
    const { input, output } = await measure(preset('cipher'));
    expect(Math.abs(output / (input * 2 ** (8 / 12)) - 1)).toBeLessThan(0.03);
  });

  it.each([-8, 6])('formant %i alone leaves the fundamental within 3 percent', async (formant) => {
    const { input, output } = await measure({
      pitch: 0,
      formant,
      robotize: false,
      scrambling: false,
    });
    expect(Math.abs(output / input - 1)).toBeLessThan(0.03);
  });
});
