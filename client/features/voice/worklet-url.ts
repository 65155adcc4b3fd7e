/**
 * The disguise worklet's URL: bundled on its own by Vite (`?worker&url`), so neither the DSP nor
 * the worklet is part of the main chunk; the page loads it only when audio is processed.
 */
import disguiseWorkletUrl from './disguise-worklet.ts?worker&url';

export { disguiseWorkletUrl };
