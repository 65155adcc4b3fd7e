/**
 * `npm run lint` fails on an import that breaks the client's layers (issue 34): ESLint, with the
 * repository's own eslint.config.js, lints planted snippets as if they were files of the client
 * and reports the rule client-layers/boundaries (eslint-rules/client-layers.js).
 */
import { ESLint } from 'eslint';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const RULE = 'client-layers/boundaries';
const eslint = new ESLint({ cwd: ROOT });

async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, filePath) });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === RULE && message.severity === 2)
    .map((message) => message.message);
}

// The first lint loads the config and reads the client's import graph: seconds on a busy machine.
describe('client boundary lint rule', { timeout: 60_000 }, () => {
  it('fails a side-door import into another feature', async () => {
    const errors = await boundaryErrors(
      'client/features/admin/planted.ts',
      "import { ChatRoomPage } from '../rooms/ChatRoomPage.js';\nexport const page = ChatRoomPage;\n",
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('inside feature "rooms"');
  });

  it('fails a type-only side door and a re-export through one', async () => {
    const errors = await boundaryErrors(
      'client/features/admin/planted.ts',
      [
        "import { type MessageStatus } from '../dm/dm-client.js';",
        "export { ThreadList } from '../dm/ThreadList.js';",
        'export type Status = MessageStatus;',
        '',
      ].join('\n'),
    );
    expect(errors).toHaveLength(2);
  });

  it('fails a side door into rooms where the terminal dialog used to live', async () => {
    const errors = await boundaryErrors(
      'client/features/admin/planted.tsx',
      "import { TerminalDialog } from '../rooms/TerminalDialog';\nexport const dialog = TerminalDialog;\n",
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('inside feature "rooms"');
  });

  it('fails an upward import: a feature into app/, lib/ or ui/ into a feature', async () => {
    expect(
      await boundaryErrors(
        'client/features/landing/planted.ts',
        "import { App } from '../../app/App.js';\nexport const app = App;\n",
      ),
    ).toHaveLength(1);
    expect(
      await boundaryErrors(
        'client/ui/planted.ts',
        "export { AuthProvider } from '../features/auth/index.js';\n",
      ),
    ).toHaveLength(1);
  });

  it('fails an import that closes a circle, even a type-only one', async () => {
    const errors = await boundaryErrors(
      'client/features/e2ee/room-members.ts',
      "import { type RoomKeyManager } from './room-key-manager.js';\nexport type Manager = RoomKeyManager;\n",
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('closes a circle');
  });

  it('passes front-door imports, imports inside a feature and imports down', async () => {
    expect(
      await boundaryErrors(
        'client/features/admin/planted.ts',
        [
          "import { BridgeConfigCard } from '../tor/index.js';",
          "import { TerminalDialog } from '../../ui/TerminalDialog.js';",
          "import { useAuth } from '../../lib/session/use-auth.js';",
          "import { AdminTabList } from './AdminTabs.js';",
          'export const used = [BridgeConfigCard, TerminalDialog, useAuth, AdminTabList];',
          '',
        ].join('\n'),
      ),
    ).toEqual([]);
  });
});
