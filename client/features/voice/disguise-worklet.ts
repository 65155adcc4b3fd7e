/**
 * The voice disguise as an AudioWorkletProcessor ('voice-disguise'): one DisguiseDsp on the
 * first input channel, written to every output channel. Settings arrive on the port as
 * DisguiseParams. Loaded by URL (`?worker&url`), so it is bundled on its own, off the main chunk.
 */
import { DisguiseDsp, type DisguiseParams } from './disguise-dsp.js';

/** The parts of the AudioWorklet global scope this file uses (the DOM lib does not type them). */
declare const sampleRate: number;
declare class AudioWorkletProcessor {
  readonly port: MessagePort;
}
declare function registerProcessor(
  name: string,
  processor: new (options: { processorOptions?: { params?: DisguiseParams } }) => unknown,
): void;

class VoiceDisguiseProcessor extends AudioWorkletProcessor {
  readonly #dsp = new DisguiseDsp(sampleRate);

  constructor(options: { processorOptions?: { params?: DisguiseParams } }) {
    super();
    if (options.processorOptions?.params) this.#dsp.setParams(options.processorOptions.params);
    this.port.onmessage = (event: MessageEvent<DisguiseParams>) => this.#dsp.setParams(event.data);
  }

  process(inputs: Float32Array[][], outputs: Float32Array[][]): boolean {
    const input = inputs[0]?.[0];
    const output = outputs[0];
    if (!output || output.length === 0) return true;
    const first = output[0]!;
    if (input) this.#dsp.process(input, first);
    else first.fill(0);
    for (let channel = 1; channel < output.length; channel++) output[channel]!.set(first);
    return true;
  }
}

registerProcessor('voice-disguise', VoiceDisguiseProcessor);
