// Types of scripts/build-server.mjs, for the tests that import it.

/** The compiled server's folder. */
export const SERVER_OUT_DIR: string;
/** The compiled entry point `npm start` runs. */
export const SERVER_ENTRY: string;
/** Folders compiled into dist-server/. */
export const SERVER_SOURCES: string[];
/** Newest modification time of a file or of anything under a folder. */
export function newestMtime(target: string): number;
/** True when dist-server/ is missing or older than any file of server/ or shared/. */
export function isServerBuildStale(): boolean;
/** Compiles TypeScript files into dist-server/ at their paths relative to the repository. */
export function compileToServerOut(files: string[]): Promise<void>;
/** Compiles server/ and shared/ into dist-server/. */
export function buildServer(): Promise<void>;
