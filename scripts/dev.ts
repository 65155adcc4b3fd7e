/**
 * `npm run dev`: the server on PORT (default 5000), restarted when server/ or shared/ change, and
 * the Vite dev server on 5173 proxying /api and the sockets to it. Ctrl-C stops both.
 */
import { spawn, type ChildProcess } from 'node:child_process';

const children: ChildProcess[] = [
  spawn(
    process.execPath,
    ['--import', 'tsx', '--watch-path=server', '--watch-path=shared', 'server/main.ts'],
    {
      stdio: 'inherit',
    },
  ),
  spawn(process.execPath, ['node_modules/vite/bin/vite.js'], { stdio: 'inherit' }),
];

const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', stop);
