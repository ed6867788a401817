import { mkdirSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * The languages OCR reads, each from its installed npm package (`@tesseract.js-data/<code>`, the `4.0.0_best_int`
 * models): English and French. The registry has no German package; German bills are read with these two, whose
 * alphabets cover German's but for ß and the umlauts' dots, which the reader's labels do without
 * (docs/decisions/1148-reading-bills.md).
 */
export const OCR_LANGUAGES = ['eng', 'fra'] as const;

/**
 * A folder holding every language's model under the name tesseract.js looks for (`<code>.traineddata.gz`), as links
 * to the installed packages' files: tesseract.js reads all languages from one folder. Nothing is fetched.
 */
export function ocrDataDir(): string {
  const require = createRequire(import.meta.url);
  const dir = join(tmpdir(), `billfold-ocr-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  for (const code of OCR_LANGUAGES) {
    const file = join(
      dirname(require.resolve(`@tesseract.js-data/${code}/package.json`)),
      '4.0.0_best_int',
      `${code}.traineddata.gz`,
    );
    try {
      symlinkSync(file, join(dir, `${code}.traineddata.gz`));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  return dir;
}
