/**
 * Writes the crypto fixtures of `tests/fixtures/` (ML-DSA-65 vectors, sample key file).
 * Run: `node --import tsx scripts/generate-crypto-fixtures.ts`. The content comes from
 * `scripts/crypto-fixtures.ts`, which the tests also run to detect drift.
 */
import { writeFile } from 'node:fs/promises';
import { buildCryptoFixtures } from './crypto-fixtures.js';

const fixturesDirectory = new URL('../tests/fixtures/', import.meta.url);

for (const [name, text] of Object.entries(await buildCryptoFixtures())) {
  const target = new URL(name, fixturesDirectory);
  await writeFile(target, text, 'utf8');
  process.stdout.write(`wrote ${target.pathname}\n`);
}
