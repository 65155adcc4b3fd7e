/**
 * How the log reads (issue 33, "the operator's first five minutes"). Off a terminal, or with
 * `LOG_FORMAT=json`, it is pino's JSON lines, one event a line, each request included: what log
 * collectors read. On a terminal (stdout is a TTY) the person who typed `npm start` gets short
 * human lines instead, and the per-request lines only at `debug`, so that the start-up banner
 * (startupBanner) stays on screen rather than scrolling away under page loads.
 *
 * The human lines carry the same fields as the JSON (the redaction happens before either), so
 * nothing reaches a terminal that the JSON would not carry.
 */
import path from 'node:path';
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import type { DestinationStream } from 'pino';
import { ADMIN_PASSWORD_FILE } from '../features/admin/index.js';

export type LogFormat = 'json' | 'text';

/** `LOG_FORMAT` when set; otherwise text on a terminal and JSON anywhere else. */
export function chooseLogFormat(options: {
  configured: LogFormat | null;
  isTerminal: boolean;
}): LogFormat {
  return options.configured ?? (options.isTerminal ? 'text' : 'json');
}

/**
 * Fastify's own per-request lines at `debug` instead of `info` (the text format); failed
 * requests stay at `error`.
 */
export class DebugRequestLogController extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(
    error: Error | null | undefined,
    _request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error) super.requestCompleted(error, _request, reply);
    else reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

const LEVEL_NAMES: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};

/** Fields every pino line carries, shown by the text line's own layout or not at all. */
const OMITTED = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'v']);

/** One JSON log line as one human line: `21:04:05 WARN message key=value …`. */
export function formatLogLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const time = typeof entry.time === 'number' ? new Date(entry.time) : new Date();
  const clock = time.toTimeString().slice(0, 8);
  const level = LEVEL_NAMES[Number(entry.level)] ?? String(entry.level);
  const fields = Object.entries(entry)
    .filter(([key]) => !OMITTED.has(key))
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  const message = typeof entry.msg === 'string' ? entry.msg : '';
  return `${clock} ${level.padEnd(5)} ${[message, ...fields].filter(Boolean).join(' ')}\n`;
}

/** A destination that writes each JSON line it is given to `target` as a human line. */
export function textDestination(target: { write(text: string): unknown }): DestinationStream {
  return {
    write(chunk: string) {
      for (const line of chunk.split('\n')) if (line !== '') target.write(formatLogLine(line));
    },
  };
}

export interface BannerFacts {
  /** The address the server listens on, as `app.listen` returned it. */
  address: string;
  dataDir: string;
  /** ADMIN_PASSWORD is set (the password is the operator's own). */
  isPasswordConfigured: boolean;
}

/** A listening address a browser can open: the wildcard hosts become 127.0.0.1. */
export function browserUrl(address: string): string {
  return address.replace('://0.0.0.0', '://127.0.0.1').replace('://[::]', '://127.0.0.1');
}

/**
 * What a person at the terminal reads once the server listens: where to go, where the admin
 * password is, and how the first admin key is made (in the browser, never on the server).
 */
export function startupBanner(facts: BannerFacts): string {
  const url = browserUrl(facts.address);
  const password = facts.isPasswordConfigured
    ? 'set by ADMIN_PASSWORD'
    : `in ${path.join(facts.dataDir, ADMIN_PASSWORD_FILE)}`;
  return [
    '',
    `  SecureChannel is running: ${url}`,
    '',
    `  Admin password: ${password}`,
    '  First admin key: open the URL, choose ADMIN at the foot of the page, enter the admin',
    '  password and generate an admin key (it is made in your browser); then log in with the',
    '  downloaded key file and type /admin in the chat for the admin panel.',
    '',
    '  Requests are logged at LOG_LEVEL=debug; LOG_FORMAT=json prints the JSON log. Ctrl+C stops.',
    '',
    '',
  ].join('\n');
}
