import { lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { describeOcrLanguages, ocrDataDir, ocrModels } from '../src/modules/bill-reading/ocr-languages.ts';

/** Which OCR languages the server reads with (src/modules/bill-reading/ocr-languages.ts), on made-up system folders. */
describe('OCR languages', () => {
  const root = mkdtempSync(join(tmpdir(), 'billfold-tessdata-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  /** A system folder as Debian lays it out, with a German model in each of `versions`. */
  function system(name: string, versions: string[]): string {
    const dir = join(root, name);
    mkdirSync(dir);
    for (const version of versions) {
      mkdirSync(join(dir, version, 'tessdata'), { recursive: true });
      writeFileSync(join(dir, version, 'tessdata', 'deu.traineddata'), `German model of Tesseract ${version}`);
    }
    // Another language's model there is not taken: only German is looked for.
    mkdirSync(join(dir, 'other', 'tessdata'), { recursive: true });
    writeFileSync(join(dir, 'other', 'tessdata', 'spa.traineddata'), 'Spanish');
    return dir;
  }

  it('reads English and French from their npm packages, and says how to add German when it is not installed', () => {
    for (const absent of [join(root, 'missing'), system('empty', [])]) {
      const models = ocrModels(absent);
      expect(models.map((m) => m.code)).toEqual(['eng', 'fra']);
      expect(models.every((m) => m.file.endsWith('.traineddata.gz') && m.file.includes('@tesseract.js-data'))).toBe(
        true,
      );
      expect(describeOcrLanguages(models)).toBe(
        'OCR reads English, French; no German model (apt-get install tesseract-ocr-deu), so those bills are read with these',
      );
    }
  });

  it("adds German from the system's newest Tesseract folder, and prepares one folder of uncompressed models", () => {
    const dir = system('debian', ['4.00', '5', '10']);
    const models = ocrModels(dir);
    expect(models.map((m) => m.code)).toEqual(['eng', 'fra', 'deu']);
    expect(models[2]?.file).toBe(join(dir, '10', 'tessdata', 'deu.traineddata'));
    expect(describeOcrLanguages(models)).toBe('OCR reads English, French, German');

    const data = ocrDataDir(models, root);
    // The npm models unpacked, the system's linked, each under the one name tesseract.js reads with `gzip: false`.
    const eng = models[0]?.file ?? '';
    expect(readFileSync(join(data, 'eng.traineddata')).equals(gunzipSync(readFileSync(eng)))).toBe(true);
    expect(lstatSync(join(data, 'deu.traineddata')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(data, 'deu.traineddata'))).toBe(models[2]?.file);
    // The same models give the same folder (shared by processes); another set, another folder.
    expect(ocrDataDir(models, root)).toBe(data);
    expect(ocrDataDir(models.slice(0, 2), root)).not.toBe(data);
  });
});
