import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';

const root = resolve(import.meta.dirname, '../../../..');

/** What an operator's command ended with: its exit code and everything it printed. */
export interface ScriptRun {
  code: number;
  out: string;
}

/**
 * Runs `npm run <script> -- …args` from the repository root, as an operator would, against the data folder
 * `dataDir` (README.md, Development): a failing exit is an answer, not a throw.
 */
export function npmScript(script: string, dataDir: string): (...args: string[]) => Promise<ScriptRun> {
  return (...args) =>
    promisify(execFile)('npm', ['run', '--silent', script, '--', ...args], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
    }).then(
      (done) => ({ code: 0, out: done.stdout + done.stderr }),
      (failed: { code: number; stdout: string; stderr: string }) => ({
        code: failed.code,
        out: failed.stdout + failed.stderr,
      }),
    );
}
