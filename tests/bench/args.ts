/** Command-line options of `npm run bench`. */
import path from 'node:path';

/** The scenarios `--scenario` selects; a run without options runs them all. */
export const SCENARIOS = [
  'fanout',
  'memory',
  'connect',
  'logins',
  'crypto',
  'pong',
  'bundle',
] as const;
/** Scenarios only `--scenario` runs (never part of a run without options): long or disruptive. */
export const EXTRA_SCENARIOS = ['faults', 'soak'] as const;
/** Every scenario: the selectable ones and `cluster`, which `--cluster` runs on its own. */
export type ScenarioName =
  (typeof SCENARIOS)[number] | (typeof EXTRA_SCENARIOS)[number] | 'cluster';

/** The soak's default length, and the capacity (messages a second in) it runs at half of. */
export const DEFAULT_SOAK_MINUTES = 30;
export const DEFAULT_SOAK_CAPACITY = 1000;

export interface BenchArgs {
  scenarios: ScenarioName[];
  /** Tiny sizes: a smoke test of the harness in well under 30 s. */
  isQuick: boolean;
  /** Runs the cluster scenario (several processes sharing Redis) and nothing else. */
  isCluster: boolean;
  /** Where the JSON results go. */
  out: string;
  /** When set, every server under test writes a V8 CPU profile into this folder. */
  profileDir: string | null;
  /** The soak's length in minutes. */
  minutes: number;
  /** The measured capacity in messages a second; the soak sends half of it. */
  rate: number;
  isHelp: boolean;
}

export const DEFAULT_OUT = '/tmp/securechannel-bench/latest.json';

export const USAGE = `Usage: npm run bench -- [options]

  --scenario NAME   run one scenario: ${[...SCENARIOS, ...EXTRA_SCENARIOS].join(' | ')} (repeat or
                    comma-separate for several); faults and soak run only when named
  --quick           tiny sizes: a smoke test of the harness (< 30 s)
  --out PATH        where to write the JSON results (default ${DEFAULT_OUT})
  --profile DIR     servers under test write V8 CPU profiles (node --cpu-prof) into DIR
  --cluster         the cluster scenario alone: bare ws, one process, one process with Redis and
                    two processes sharing Redis, fan-out and connect (about 4 min); combines with
                    --quick, --out and --profile, not with --scenario
  --minutes N       soak: how long, in minutes (default ${DEFAULT_SOAK_MINUTES})
  --rate N          soak: the measured capacity in messages a second (default
                    ${DEFAULT_SOAK_CAPACITY}, fan-out 100 × 10); the soak sends half of it
  --help            this text
`;

function isScenario(value: string): value is ScenarioName {
  return ([...SCENARIOS, ...EXTRA_SCENARIOS] as readonly string[]).includes(value);
}

/** Parses argv (without node and the script); throws an Error naming a bad option. */
export function parseArgs(argv: readonly string[]): BenchArgs {
  const args: BenchArgs = {
    scenarios: [],
    isQuick: false,
    isCluster: false,
    out: DEFAULT_OUT,
    profileDir: null,
    minutes: DEFAULT_SOAK_MINUTES,
    rate: DEFAULT_SOAK_CAPACITY,
    isHelp: false,
  };
  const positive = (flag: string, given: string) => {
    const number = Number(given);
    if (!Number.isFinite(number) || number <= 0) throw new Error(`${flag} needs a positive number`);
    return number;
  };
  for (let i = 0; i < argv.length; i += 1) {
    const raw = argv[i]!;
    const equals = raw.startsWith('--') ? raw.indexOf('=') : -1;
    const flag = equals > 0 ? raw.slice(0, equals) : raw;
    const inline = equals > 0 ? raw.slice(equals + 1) : undefined;
    const value = () => {
      const given = inline ?? argv[++i];
      if (given === undefined || given === '') throw new Error(`${flag} needs a value`);
      return given;
    };
    switch (flag) {
      case '--scenario':
        for (const name of value().split(',')) {
          if (!isScenario(name)) throw new Error(`unknown scenario "${name}"`);
          if (!args.scenarios.includes(name)) args.scenarios.push(name);
        }
        break;
      case '--quick':
        args.isQuick = true;
        break;
      case '--cluster':
        args.isCluster = true;
        break;
      case '--out':
        args.out = value();
        break;
      case '--profile':
        args.profileDir = path.resolve(value());
        break;
      case '--minutes':
        args.minutes = positive(flag, value());
        break;
      case '--rate':
        args.rate = positive(flag, value());
        break;
      case '--help':
      case '-h':
        args.isHelp = true;
        break;
      default:
        throw new Error(`unknown option "${raw}"`);
    }
  }
  if (args.isCluster) {
    if (args.scenarios.length > 0) throw new Error('--cluster runs alone: drop --scenario');
    args.scenarios = ['cluster'];
  }
  if (args.scenarios.length === 0) args.scenarios = [...SCENARIOS];
  return args;
}
