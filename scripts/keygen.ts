/** Entry point of `npm run keygen`; the logic is in server/tools/keygen.ts. */
import { KeygenError, runKeygen } from '../server/tools/keygen.js';

try {
  const lines = await runKeygen(process.argv.slice(2), process.env, process.cwd());
  process.stdout.write(`${lines.join('\n')}\n`);
} catch (error) {
  process.stderr.write(`${error instanceof KeygenError ? error.message : String(error)}\n`);
  process.exit(1);
}
