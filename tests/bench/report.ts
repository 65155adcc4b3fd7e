/** Printing results as tables, checking them against targets, and writing them as JSON. */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ScenarioName } from './args.js';

export interface Table {
  title: string;
  columns: string[];
  rows: string[][];
  /** Columns from the left that hold text (left-aligned); the rest are numbers. Default 1. */
  textColumns?: number;
}

export interface Check {
  scenario: ScenarioName;
  name: string;
  /** The target, in words: "≤ 1.20× bare". */
  target: string;
  /** What was measured, in words: "1.07×". */
  actual: string;
  /** null when the figure is informational (no target was set). */
  pass: boolean | null;
}

export interface ScenarioReport {
  scenario: ScenarioName;
  tables: Table[];
  checks: Check[];
  /** Remarks printed under the tables (saturation warnings, method notes). */
  notes: string[];
  /** Every measured figure, for the JSON file. */
  data: unknown;
}

/** Fixed decimals, or "n/a" for NaN and infinities. */
export function fixed(value: number, digits = 1): string {
  return Number.isFinite(value) ? value.toFixed(digits) : 'n/a';
}

export function times(value: number): string {
  return Number.isFinite(value) ? `${value.toFixed(2)}×` : 'n/a';
}

export function percent(value: number, digits = 2): string {
  return Number.isFinite(value) ? `${(value * 100).toFixed(digits)}%` : 'n/a';
}

export function formatTable(table: Table): string {
  const widths = table.columns.map((column, index) =>
    Math.max(column.length, ...table.rows.map((row) => (row[index] ?? '').length)),
  );
  const textColumns = table.textColumns ?? 1;
  const line = (cells: string[]) =>
    cells
      .map((cell, index) =>
        index < textColumns ? cell.padEnd(widths[index]!) : cell.padStart(widths[index]!),
      )
      .join('  ')
      .trimEnd();
  return [
    table.title,
    line(table.columns),
    widths.map((width) => '-'.repeat(width)).join('  '),
    ...table.rows.map(line),
  ].join('\n');
}

export function formatScenario(report: ScenarioReport): string {
  const parts = [`\n== ${report.scenario} ==`];
  for (const table of report.tables) parts.push(`\n${formatTable(table)}`);
  if (report.notes.length > 0)
    parts.push(`\n${report.notes.map((note) => `note: ${note}`).join('\n')}`);
  return parts.join('\n');
}

function verdict(check: Check): string {
  if (check.pass === null) return 'INFO';
  return check.pass ? 'PASS' : 'FAIL';
}

export function formatSummary(reports: readonly ScenarioReport[]): string {
  const checks = reports.flatMap((report) => report.checks);
  const table: Table = {
    title: 'Summary: targets',
    columns: ['scenario', 'check', 'target', 'measured', 'verdict'],
    textColumns: 5,
    rows: checks.map((check) => [
      check.scenario,
      check.name,
      check.target,
      check.actual,
      verdict(check),
    ]),
  };
  const failed = checks.filter((check) => check.pass === false).length;
  const passed = checks.filter((check) => check.pass === true).length;
  return `\n${formatTable(table)}\n\n${passed} passed, ${failed} failed, ${checks.length - passed - failed} informational`;
}

/** Writes the results (and the run's context) as JSON, creating the folder. */
export async function writeResults(file: string, payload: unknown): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(payload, null, 2)}\n`);
}
