import { realpathSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Marks a build directory (`packages/<target>/builds/<id>`, scripts/build.mjs) as used by this process until it
 * exits, so a later build does not remove files this server still serves or loads. A read-only install (the
 * container, the systemd unit's ProtectSystem=strict) is never rebuilt in place and needs no marker: a failed
 * write is ignored.
 */
export function markBuildInUse(dir: string): void {
  let marker: string;
  try {
    const real = realpathSync(dir);
    if (basename(dirname(real)) !== 'builds') return;
    marker = join(real, `.in-use-${process.pid}`);
    writeFileSync(marker, '');
  } catch {
    return;
  }
  process.once('exit', () => rmSync(marker, { force: true }));
}
