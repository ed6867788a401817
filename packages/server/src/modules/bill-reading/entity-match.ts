import { fold } from './bill-text.ts';

/** Words of a company's name that say nothing about which company it is. */
const LEGAL_WORDS = new Set([
  'inc',
  'llc',
  'ltd',
  'co',
  'corp',
  'company',
  'the',
  'gmbh',
  'ag',
  'kg',
  'ug',
  'ohg',
  'ev',
  'und',
  'and',
  'sa',
  'sas',
  'sarl',
  'sasu',
  'eurl',
  'et',
  'cie',
  'de',
  'du',
  'des',
  'la',
  'le',
  'les',
  'der',
  'die',
  'das',
  'of',
]);

/** The words of a name or a bill's text that tell one company from another (folded, no legal forms). */
export function nameWords(text: string): string[] {
  return fold(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length >= 2 && !LEGAL_WORDS.has(word));
}

/** Edits (insert, delete, replace) from `a` to `b`, stopping early past `max`. */
function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > max) return max + 1;
    previous = current;
  }
  return previous[b.length] ?? max + 1;
}

/** Whether a bill's word is the name's word, allowing one misread letter in words of five letters or more (OCR). */
function sameWord(name: string, read: string): boolean {
  if (name === read) return true;
  return name.length >= 5 && editDistance(name, read, 1) <= 1;
}

export interface EntityCandidate {
  id: number;
  name: string;
}

/** The least share of an entity's words that must be on the bill for it to be proposed. */
export const MATCH_THRESHOLD = 0.75;

/**
 * The ledger's entity the bill comes from: the one with the largest share of its name's words on the bill (each
 * word found once, one misread letter allowed in long words), at least `MATCH_THRESHOLD` of them; a tie goes to the
 * longer name (more words matched), then to the name found nearest the bill's top. Null when none is close: the
 * user picks or creates one, nothing is created here.
 */
export function matchEntity(text: string, entities: readonly EntityCandidate[]): EntityCandidate | null {
  const read = nameWords(text);
  const readSet = new Set(read);
  let best: { entity: EntityCandidate; share: number; words: number; at: number } | null = null;
  for (const entity of entities) {
    const words = nameWords(entity.name);
    if (words.length === 0) continue;
    let found = 0;
    let at = Number.POSITIVE_INFINITY;
    for (const word of words) {
      const index = readSet.has(word) ? read.indexOf(word) : read.findIndex((r) => sameWord(word, r));
      if (index >= 0) {
        found++;
        at = Math.min(at, index);
      }
    }
    const share = found / words.length;
    if (share < MATCH_THRESHOLD) continue;
    const better =
      !best ||
      share > best.share ||
      (share === best.share && (found > best.words || (found === best.words && at < best.at)));
    if (better) best = { entity, share, words: found, at };
  }
  return best?.entity ?? null;
}
