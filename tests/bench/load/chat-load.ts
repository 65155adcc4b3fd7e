/**
 * Chat traffic: chosen members of each room send `send_message` at a fixed rate, every member
 * (the sender included) records when each message arrives. A message's content is the plaintext
 * JSON `{"t":<send time>,"seq":<n>}` with encryptionType PLAINTEXT: benchmark traffic only, so
 * that receivers can compute end-to-end latency without a side table.
 *
 * Timeline: warm-up → measurement window → senders stop → drain. Only messages sent inside the
 * window count for latency and delivery; deliveries received inside the window count for
 * throughput, so the server's CPU over the same window divides by them.
 */
import { Samples, distribution, type Distribution } from '../stats.js';
import type { BenchClient } from './clients.js';

const NEW_MESSAGE_PREFIX = '{"type":"new_message"';
const ERROR_PREFIX = '{"type":"error"';
const BOT_CHALLENGE_PREFIX = '{"type":"bot_challenge"';

export interface ChatLoadOptions {
  /** Members of each room. */
  rooms: BenchClient[][];
  sendersPerRoom: number;
  /** Messages a second per sender. */
  ratePerSender: number;
  warmupMs: number;
  windowMs: number;
  drainMs: number;
  /** Called as the measurement window opens and closes (CPU meters, login bursts). */
  onWindowStart?: () => void;
  onWindowEnd?: () => void;
}

export interface ChatLoadResult {
  windowMs: number;
  /** Messages sent inside the window. */
  sent: number;
  /** sent × members of the sender's room. */
  expectedDeliveries: number;
  /** Deliveries of window messages, counted after the drain. */
  delivered: number;
  /** Deliveries (of any message) received while the window was open. */
  receivedInWindow: number;
  /** Error frames received by any member, and the first few of them. */
  errorFrames: number;
  errorSamples: string[];
  /**
   * Members the server's abuse control challenged as bots (bot_challenge frames). A challenged
   * member cannot send until it answers, and the bench does not answer.
   */
  botChallenges: number;
  /** Frames of every type received while the window was open. */
  framesInWindow: number;
  latency: Distribution;
  /** The generator's own CPU use over the window, in ms. */
  generatorCpuMs: number;
  /** Window start, on this process's performance.now() clock. */
  windowStartedAt: number;
  /** Latency of the window messages sent within [from, to) (performance.now() times). */
  latencyBetween(from: number, to: number): Distribution;
  /** Every latency sample of the window messages, in ms. */
  latencySamples(): Float64Array;
  /** The send time (performance.now()) of each sample of {@link latencySamples}, in order. */
  sendTimeSamples(): Float64Array;
}

interface BenchContent {
  t: number;
  seq: number;
}

function readContent(text: string): BenchContent | null {
  const frame: unknown = JSON.parse(text);
  if (typeof frame !== 'object' || frame === null || !('message' in frame)) return null;
  const message = frame.message;
  if (typeof message !== 'object' || message === null || !('content' in message)) return null;
  if (typeof message.content !== 'string') return null;
  const content: unknown = JSON.parse(message.content);
  if (typeof content !== 'object' || content === null) return null;
  if (!('t' in content) || !('seq' in content)) return null;
  const { t, seq } = content;
  return typeof t === 'number' && typeof seq === 'number' ? { t, seq } : null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runChatLoad(options: ChatLoadOptions): Promise<ChatLoadResult> {
  let seq = 0;
  let windowOpen = false;
  let firstWindowSeq = Number.POSITIVE_INFINITY;
  let endWindowSeq = Number.POSITIVE_INFINITY;
  let receivedInWindow = 0;
  let framesInWindow = 0;
  let errorFrames = 0;
  const errorSamples: string[] = [];
  let botChallenges = 0;
  let delivered = 0;
  let expectedDeliveries = 0;
  const latencies = new Samples();
  const sendTimes = new Samples();

  // Receivers.
  for (const members of options.rooms) {
    for (const client of members) {
      client.onFrame = (text) => {
        if (windowOpen) framesInWindow += 1;
        if (!text.startsWith(NEW_MESSAGE_PREFIX)) {
          if (text.startsWith(BOT_CHALLENGE_PREFIX)) botChallenges += 1;
          else if (text.startsWith(ERROR_PREFIX)) {
            errorFrames += 1;
            if (errorSamples.length < 5) errorSamples.push(text.slice(0, 200));
          }
          return;
        }
        const now = performance.now();
        const content = readContent(text);
        if (!content) return;
        if (windowOpen) receivedInWindow += 1;
        if (content.seq >= firstWindowSeq && content.seq < endWindowSeq) {
          delivered += 1;
          latencies.push(now - content.t);
          sendTimes.push(content.t);
        }
      };
    }
  }

  // Senders: the first `sendersPerRoom` members of each room, phases spread over one interval.
  const intervalMs = 1000 / options.ratePerSender;
  const timers: NodeJS.Timeout[] = [];
  for (const members of options.rooms) {
    for (const sender of members.slice(0, options.sendersPerRoom)) {
      const send = () => {
        const t = performance.now();
        const mine = seq++;
        if (mine >= firstWindowSeq && mine < endWindowSeq) expectedDeliveries += members.length;
        sender.send(
          JSON.stringify({
            type: 'send_message',
            content: JSON.stringify({ t, seq: mine }),
            encryptionType: 'PLAINTEXT',
          }),
        );
      };
      const start = setTimeout(() => {
        send();
        timers.push(setInterval(send, intervalMs));
      }, Math.random() * intervalMs);
      timers.push(start);
    }
  }

  await sleep(options.warmupMs);
  const cpuStart = process.cpuUsage();
  const windowStartedAt = performance.now();
  firstWindowSeq = seq;
  windowOpen = true;
  options.onWindowStart?.();
  await sleep(options.windowMs);
  endWindowSeq = seq;
  windowOpen = false;
  const windowMs = performance.now() - windowStartedAt;
  const cpu = process.cpuUsage(cpuStart);
  options.onWindowEnd?.();
  for (const timer of timers) clearInterval(timer);
  await sleep(options.drainMs);
  for (const members of options.rooms) for (const client of members) client.onFrame = null;

  const latencyValues = latencies.values();
  const sendTimeValues = sendTimes.values();
  return {
    windowMs,
    sent: endWindowSeq - firstWindowSeq,
    expectedDeliveries,
    delivered,
    receivedInWindow,
    errorFrames,
    errorSamples,
    botChallenges,
    framesInWindow,
    latency: distribution(latencyValues),
    generatorCpuMs: (cpu.user + cpu.system) / 1000,
    windowStartedAt,
    latencySamples: () => latencyValues,
    sendTimeSamples: () => sendTimeValues,
    latencyBetween: (from, to) => {
      const picked = new Samples();
      for (let i = 0; i < latencyValues.length; i += 1) {
        const sentAt = sendTimeValues[i]!;
        if (sentAt >= from && sentAt < to) picked.push(latencyValues[i]!);
      }
      return distribution(picked.values());
    },
  };
}
