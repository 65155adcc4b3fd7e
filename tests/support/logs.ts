/** Captures the server's log lines in memory so tests can assert what was (never) logged. */
import { Writable } from 'node:stream';

export interface LogCapture {
  stream: Writable;
  lines: string[];
  text(): string;
}

export function captureLogs(): LogCapture {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      callback();
    },
  });
  return { stream, lines, text: () => lines.join('\n') };
}
