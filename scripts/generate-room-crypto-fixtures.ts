/**
 * Writes `tests/fixtures/room-crypto-vectors.json`, the known-answer vectors of room encryption.
 * Run: `node --import tsx scripts/generate-room-crypto-fixtures.ts`. The content comes from
 * `scripts/room-crypto-fixtures.ts`, which the tests also run to detect drift.
 */
import { writeFile } from 'node:fs/promises';
import { buildRoomCryptoFixtures } from './room-crypto-fixtures.js';

const fixturesDirectory = new URL('../tests/fixtures/', import.meta.url);

for (const [name, text] of Object.entries(await buildRoomCryptoFixtures())) {
  const target = new URL(name, fixturesDirectory);
  await writeFile(target, text, 'utf8');
  process.stdout.write(`wrote ${target.pathname}\n`);
}
