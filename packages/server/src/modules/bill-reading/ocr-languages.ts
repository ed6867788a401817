import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';

/** A language OCR can read, and the file of its model (`.traineddata`, or gzipped `.traineddata.gz`). */
export interface OcrModel {
  /** Tesseract's code: `eng`, `fra`, `deu`. */
  code: string;
  file: string;
}

/** Where Debian's `tesseract-ocr-<code>` packages install their models: `<version>/tessdata/<code>.traineddata`. */
export const SYSTEM_TESSDATA = '/usr/share/tesseract-ocr';

/** Languages read from npm packages (`@tesseract.js-data/<code>`, the `4.0.0_best_int` models). */
const NPM_LANGUAGES = ['eng', 'fra'] as const;
/** Languages read from the system's packages when installed: the npm registry has no German model. */
const SYSTEM_LANGUAGES = ['deu'] as const;
const NAMES: Record<string, string> = { eng: 'English', fra: 'French', deu: 'German' };

/**
 * The languages OCR reads (docs/decisions/1166-german-ocr.md): English and French always, from their npm packages;
 * German when Debian's `tesseract-ocr-deu` is installed under `systemRoot` (the newest Tesseract version's folder
 * first). Nothing is ever fetched.
 */
export function ocrModels(systemRoot = SYSTEM_TESSDATA): OcrModel[] {
  const require = createRequire(import.meta.url);
  const models: OcrModel[] = NPM_LANGUAGES.map((code) => ({
    code,
    file: join(
      dirname(require.resolve(`@tesseract.js-data/${code}/package.json`)),
      '4.0.0_best_int',
      `${code}.traineddata.gz`,
    ),
  }));
  let versions: string[] = [];
  try {
    versions = readdirSync(systemRoot).sort((a, b) => b.localeCompare(a, 'en', { numeric: true }));
  } catch {
    // No system models.
  }
  for (const code of SYSTEM_LANGUAGES) {
    const file = versions
      .map((version) => join(systemRoot, version, 'tessdata', `${code}.traineddata`))
      .find((path) => existsSync(path));
    if (file) models.push({ code, file });
  }
  return models;
}

/** For the start-up log and the bench: which languages OCR reads, and how to add German when it is missing. */
export function describeOcrLanguages(models: readonly OcrModel[]): string {
  const names = models.map((m) => NAMES[m.code] ?? m.code).join(', ');
  const missing = SYSTEM_LANGUAGES.filter((code) => !models.some((m) => m.code === code));
  return missing.length === 0
    ? `OCR reads ${names}`
    : `OCR reads ${names}; no ${missing.map((code) => NAMES[code]).join(', ')} model (apt-get install ${missing.map((code) => `tesseract-ocr-${code}`).join(' ')}), so those bills are read with these`;
}

/**
 * A folder holding every model as `<code>.traineddata`, uncompressed, the one name tesseract.js looks for with
 * `gzip: false` in its `langPath`: the npm packages' gzipped files unpacked, the system's linked. Under `parent`
 * (the system's temp folder), named after the models' files, sizes and times, so processes share it and a changed
 * model gets a new folder; each file is written under a temporary name and renamed, so a process never reads
 * another's half-written file.
 */
export function ocrDataDir(models: readonly OcrModel[], parent = tmpdir()): string {
  const hash = createHash('sha256');
  for (const { code, file } of models) {
    const stat = statSync(file);
    hash.update(`${code}\0${file}\0${stat.size}\0${stat.mtimeMs}\n`);
  }
  const dir = join(parent, `billfold-ocr-${hash.digest('hex').slice(0, 16)}`);
  mkdirSync(dir, { recursive: true });
  for (const { code, file } of models) {
    const target = join(dir, `${code}.traineddata`);
    if (existsSync(target)) continue;
    const temporary = `${target}.${process.pid}.tmp`;
    rmSync(temporary, { force: true });
    if (file.endsWith('.gz')) writeFileSync(temporary, gunzipSync(readFileSync(file)));
    else symlinkSync(file, temporary);
    renameSync(temporary, target);
  }
  return dir;
}
