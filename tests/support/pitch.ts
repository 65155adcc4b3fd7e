/**
 * The fundamental frequency of a signal, measured independently of the code under test: the
 * normalised autocorrelation's highest peak between 50 Hz and 1 kHz (lags past its first dip),
 * refined by a parabola through the peak and its neighbours.
 */
export function fundamentalHz(samples: ArrayLike<number>, sampleRate: number): number {
  const n = samples.length;
  const minLag = Math.floor(sampleRate / 1000);
  const maxLag = Math.ceil(sampleRate / 50);
  if (n < maxLag * 2) throw new RangeError('too few samples to measure a fundamental');
  let mean = 0;
  for (let i = 0; i < n; i++) mean += samples[i]!;
  mean /= n;
  const x = Float64Array.from({ length: n }, (_, i) => samples[i]! - mean);
  const window = n - maxLag;
  const correlation = new Float64Array(maxLag + 2);
  let energy0 = 0;
  for (let i = 0; i < window; i++) energy0 += x[i]! * x[i]!;
  for (let lag = minLag - 1; lag <= maxLag + 1; lag++) {
    let sum = 0;
    let energy = 0;
    for (let i = 0; i < window; i++) {
      sum += x[i]! * x[i + lag]!;
      energy += x[i + lag]! * x[i + lag]!;
    }
    correlation[lag] = sum / Math.sqrt(energy0 * energy + 1e-20);
  }
  // Skip the lobe around lag 0: start after the correlation first falls below zero.
  let lag = minLag;
  while (lag < maxLag && correlation[lag]! > 0) lag++;
  let best = -1;
  for (; lag <= maxLag; lag++) {
    if (best < 0 || correlation[lag]! > correlation[best]!) best = lag;
  }
  // Prefer the shortest lag whose peak is nearly as high (the fundamental, not a multiple).
  for (let candidate = minLag + 1; candidate < best; candidate++) {
    const c = correlation[candidate]!;
    if (
      c > 0.9 * correlation[best]! &&
      c >= correlation[candidate - 1]! &&
      c >= correlation[candidate + 1]!
    ) {
      best = candidate;
      break;
    }
  }
  const a = correlation[best - 1]!;
  const b = correlation[best]!;
  const c = correlation[best + 1]!;
  const denominator = a - 2 * b + c;
  const offset = denominator === 0 ? 0 : (0.5 * (a - c)) / denominator;
  return sampleRate / (best + offset);
}

/** A sine of `hz` at `amplitude`, `seconds` long. */
export function sine(
  hz: number,
  seconds: number,
  sampleRate: number,
  amplitude = 0.5,
): Float32Array {
  return Float32Array.from(
    { length: Math.round(seconds * sampleRate) },
    (_, i) => amplitude * Math.sin((2 * Math.PI * hz * i) / sampleRate),
  );
}

/** A 16-bit PCM mono WAV file of `samples`. */
export function wavFile(samples: Float32Array, sampleRate: number): Buffer {
  const data = Buffer.alloc(samples.length * 2);
  samples.forEach((value, i) =>
    data.writeInt16LE(Math.round(Math.max(-1, Math.min(1, value)) * 32767), i * 2),
  );
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}
