import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/**
 * Whether the module at `moduleUrl` is the program run (`tsx src/cli/<name>.ts`, or the compiled `dist/<name>.js`,
 * a link), rather than imported by a test.
 */
export function isProgram(moduleUrl: string): boolean {
  try {
    return moduleUrl === pathToFileURL(realpathSync(process.argv[1] ?? '')).href;
  } catch {
    return false;
  }
}
