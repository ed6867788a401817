/**
 * Which characters user text may hold (docs/decisions/0102-text-characters.md). Every string field refuses
 * characters that cannot be shown, that hide or reorder what is shown, or that show text the user never sent;
 * names (identifiers a person picks from a list) also refuse everything invisible, so two names never look alike.
 */

/** `U+202E`: how a refused character is named in a message. */
function codePoint(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

interface Rule {
  pattern: RegExp;
  message: (char: string) => string;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** For every string field. */
const TEXT_RULES: Rule[] = [
  // C0 controls but newline and tab, DEL, C1 controls.
  { pattern: /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/, message: () => 'must not contain control characters' },
  {
    // A lone surrogate has no UTF-8 form; U+FFFD is what a decoder writes for bytes that were not UTF-8.
    pattern: new RegExp(`${LONE_SURROGATE.source}|\\uFFFD`),
    message: () => 'contains a character that could not be read (invalid UTF-8 or a broken surrogate pair)',
  },
  {
    // Embeddings, overrides and isolates reorder the text around them when it is shown.
    pattern: /[\u202A-\u202E\u2066-\u2069]/,
    message: (c) => `must not contain ${codePoint(c)}, an invisible character that reverses how text is shown`,
  },
  {
    // Zero-width space, word joiner, invisible operators, deprecated format controls, BOM, annotation marks,
    // line and paragraph separators: invisible, and not needed by any script.
    pattern: /[\u200B\u2028\u2029\u2060-\u2064\u206A-\u206F\uFEFF\uFFF9-\uFFFB]/,
    message: (c) => `must not contain ${codePoint(c)}, an invisible character`,
  },
];

/** For names, on top of `TEXT_RULES`. */
const NAME_RULES: Rule[] = [
  { pattern: /[\n\t]/, message: () => 'must be on one line (no line breaks or tabs)' },
  {
    // Every format character (zero-width joiners, direction marks, soft hyphen, tag characters, …) and the
    // blank-looking letters (Hangul fillers, braille blank, combining grapheme joiner).
    pattern: /\p{Cf}|\u034F|[\u115F\u1160\u2800\u3164\uFFA0]/u,
    message: (c) => `must not contain ${codePoint(c)}, an invisible character that makes names look alike`,
  },
  // Every space separator but the plain space (U+0020).
  {
    pattern: /[\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]/,
    message: (c) => `must use plain spaces, not ${codePoint(c)}`,
  },
];

function firstProblem(value: string, rules: readonly Rule[]): string | null {
  for (const rule of rules) {
    const match = rule.pattern.exec(value);
    if (match) return rule.message(match[0]);
  }
  return null;
}

/** Why `value` may not be stored as free text (description, notes, search), or `null` when it may. */
export function textProblem(value: string): string | null {
  return firstProblem(value, TEXT_RULES);
}

/** Why `value` may not be a name (entity name, email), or `null` when it may. */
export function nameProblem(value: string): string | null {
  return firstProblem(value, TEXT_RULES) ?? firstProblem(value, NAME_RULES);
}
