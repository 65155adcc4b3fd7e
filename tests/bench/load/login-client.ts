/**
 * The bench's side of the login driver: starts it pinned to the generator's CPU, ten nice steps
 * below the generator (so its signing yields to the event loop that measures chat latency), and
 * sends it commands.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { z } from 'zod';
import { LoginResponseSchema, type LoginCommand } from './login-protocol.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');

export class LoginDriver {
  private nextId = 1;
  private readonly waiting = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void }
  >();
  private stderr = '';
  /** The driver's pid (nice and taskset exec it, so this is the Node process). */
  readonly pid: number;

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    this.pid = child.pid ?? 0;
    createInterface({ input: child.stdout }).on('line', (line) => {
      const response = LoginResponseSchema.parse(JSON.parse(line));
      const waiter = this.waiting.get(response.id);
      if (!waiter) return;
      this.waiting.delete(response.id);
      if (response.ok) waiter.resolve(response.result);
      else waiter.reject(new Error(`login driver: ${response.error}`));
    });
    child.stderr.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString()).slice(-10_000);
    });
    child.on('exit', (code) => {
      for (const waiter of this.waiting.values()) {
        waiter.reject(new Error(`login driver exited with ${code}: ${this.stderr}`));
      }
      this.waiting.clear();
    });
  }

  static start(cpu: number): LoginDriver {
    const child = spawn(
      'nice',
      [
        '-n',
        '10',
        'taskset',
        '-c',
        String(cpu),
        process.execPath,
        '--import',
        'tsx',
        'tests/bench/load/login-driver.ts',
      ],
      { cwd: ROOT, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' } },
    );
    return new LoginDriver(child);
  }

  /** Sends one command and parses its result with `schema`. */
  async call<T>(command: LoginCommand, schema: z.ZodType<T>): Promise<T> {
    const id = this.nextId++;
    const result = await new Promise<unknown>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.child.stdin.write(`${JSON.stringify({ id, ...command })}\n`);
    });
    return schema.parse(result);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.stdin.end();
    await exited;
  }
}
