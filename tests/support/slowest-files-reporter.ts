/**
 * A Vitest reporter that ends every run with the ten slowest test files (issue 36: a suite a team
 * can wait for). The time of a file is what Vitest measured for it: importing it and running its
 * tests and hooks. When files run side by side (`--maxWorkers`), they add up to more than the wall time.
 */
import type { Reporter, TestModule } from 'vitest/node';

const SHOWN = 10;

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

export default class SlowestFilesReporter implements Reporter {
  private startedAt = 0;

  onTestRunStart(): void {
    this.startedAt = performance.now();
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const files = testModules.map((module) => {
      const diagnostic = module.diagnostic();
      return {
        name: `${module.project.name}: ${module.relativeModuleId}`,
        ms: diagnostic.collectDuration + diagnostic.setupDuration + diagnostic.duration,
      };
    });
    if (files.length === 0) return;
    files.sort((a, b) => b.ms - a.ms);
    const total = files.reduce((sum, file) => sum + file.ms, 0);
    const lines = files
      .slice(0, SHOWN)
      .map((file) => `  ${seconds(file.ms).padStart(8)}  ${file.name}`);
    const wall = performance.now() - this.startedAt;
    process.stdout.write(
      `\nTen slowest test files (of ${files.length}; file times add up to ${seconds(total)} in ${seconds(wall)} of wall time):\n${lines.join('\n')}\n`,
    );
  }
}
