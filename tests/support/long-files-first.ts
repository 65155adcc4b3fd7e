/**
 * Vitest's order, except that the files known to run far longer than their size suggests start
 * first. Vitest orders files by the durations of the last run on this machine and, on a fresh
 * clone (CI), by size, largest first, one project after another: a short file that computes for a
 * minute (tests/unit/ml-dsa-differential.test.ts: 10,000 reference verifications in pure
 * JavaScript) then started last of the 211 non-browser files and ran alone for most of its
 * minute while the other worker had nothing left (docs/decisions.md "Long files first").
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Paths from the project root. A file listed here that no longer exists is simply not found. */
export const LONG_FILES: readonly string[] = ['tests/unit/ml-dsa-differential.test.ts'];

export default class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const isLong = (file: TestSpecification) =>
      LONG_FILES.includes(relative(file.project.config.root, file.moduleId));
    // Stable: the browser group (sequence.groupOrder 1) still runs after the rest, whatever its
    // place in this list.
    return [...sorted.filter(isLong), ...sorted.filter((file) => !isLong(file))];
  }
}
