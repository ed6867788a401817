/**
 * Keeps the repository self-explaining (docs/decisions/1120-citations-a-clone-has.md): every tracked text file
 * cites only documents a clone has. Run by `npm run lint`; prints what it checked and each problem as file:line.
 *
 * (a) No citation of a document outside the repository: the old product description by its section sign or file
 *     name, the old contract or architecture page by file name, a path on the build machine, the sibling folder
 *     those documents lived in. Our own docs say it all (docs/product.md, docs/api/README.md,
 *     docs/architecture.md).
 * (b) A path that cites a doc (`docs/….md`, optionally with `#anchor` or `, Heading`), a relative link in a
 *     Markdown file, and a decision record cited by number (`ADR 0403`, `decision 0705`) name a file that exists.
 * (c) `docs/product.md, <Heading>` and `docs/api/README.md, <Heading>` name a heading of that file, and an
 *     `#anchor` on any cited Markdown file names one of its headings.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

/** This file: it spells out the patterns of rule (a), so rule (a) skips it. */
const SELF = 'scripts/check-citations.ts';

/** Files whose heading a citation may name after a comma (`docs/product.md, Messages`). */
const HEADING_CITED = ['docs/product.md', 'docs/api/README.md'] as const;

const TEXT_FILE = /\.(ts|tsx|md|json)$/;
const EXTRA_FILES = new Set(['.ci/run']);
const LOCKFILES = new Set(['package-lock.json', 'npm-shrinkwrap.json']);

/** What a citation of a document outside the repository looks like, and how to say what is wrong. */
const OUTSIDE: readonly { pattern: RegExp; what: string }[] = [
  { pattern: /\bspec(?:'s)?\s*§/i, what: 'a section of the old product spec' },
  { pattern: /(?:^|[\s(])§\s?\d/, what: 'a numbered section of the old product spec' },
  { pattern: /\bPRODUCT\.md\b/, what: 'the old product spec' },
  { pattern: /(?<!docs\/api\/)\bAPI\.md\b/, what: 'the old API contract (cite docs/api/README.md)' },
  { pattern: /\bARCHITECTURE\.md\b/, what: 'the old architecture page (cite docs/architecture.md)' },
  { pattern: /(?<![\w.-])\/work\//, what: 'a path on the build machine' },
  { pattern: /\.\.\/shared\b/, what: 'the folder of documents outside the repository' },
];

/** `docs/<path>.md`, then an optional `#anchor`; a `, Heading…` after it is read from the rest of the line. */
const DOC_PATH = /(?<![\w./-])(docs\/[A-Za-z0-9_./-]*[A-Za-z0-9_-]\.md)(#[A-Za-z0-9_-]+)?/g;
/** A decision record cited by its number: `ADR 0403`, `ADRs 0400`, `decision 0705`. */
const ADR_NUMBER = /\b(?:ADRs?|[Dd]ecisions?) (\d{4})\b/g;
const DECISIONS_DIR = 'docs/decisions';
/** A Markdown link's target: `[text](target)`. */
const MD_LINK = /\[[^\]\n]*\]\(([^)\s]+)\)/g;

interface Problem {
  file: string;
  line: number;
  message: string;
}

interface Heading {
  text: string;
  slug: string;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function slugOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

const headingCache = new Map<string, Heading[]>();

function headingsOf(root: string, path: string): Heading[] {
  let headings = headingCache.get(path);
  if (!headings) {
    const text = readFileSync(join(root, path), 'utf8');
    headings = [];
    const seen = new Map<string, number>();
    let fenced = false;
    for (const line of text.split('\n')) {
      if (line.startsWith('```')) fenced = !fenced;
      const heading = fenced ? undefined : /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line)?.[1];
      if (!heading) continue;
      // A repeated heading gets `-1`, `-2`, … after its anchor, as GitHub does.
      const base = slugOf(heading);
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      headings.push({ text: heading, slug: count === 0 ? base : `${base}-${count}` });
    }
    headingCache.set(path, headings);
  }
  return headings;
}

/** The heading `after` (the text following `, `) begins with, longest first; null when it names none. */
function citedHeading(headings: readonly Heading[], after: string): string | null {
  const found = headings
    .map((h) => h.text)
    .filter((text) => after.startsWith(text) && !/[\w]/.test(after.charAt(text.length)))
    .sort((a, b) => b.length - a.length);
  return found[0] ?? null;
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

interface Report {
  problems: Problem[];
  citations: number;
  filesWithCitations: number;
  files: number;
}

/** Checks `files` (paths relative to `root`). */
function checkFiles(root: string, files: readonly string[]): Report {
  const problems: Problem[] = [];
  let citations = 0;
  const citing = new Set<string>();
  const fileExists = (path: string) => existsSync(join(root, path));
  const adrNumbers = new Set(
    readdirSync(join(root, DECISIONS_DIR))
      .map((name) => /^(\d{4})-.*\.md$/.exec(name)?.[1])
      .filter((n): n is string => n !== undefined),
  );

  /** Checks that `path` exists and, when given, that `anchor` is one of its headings. */
  const checkTarget = (file: string, line: number, path: string, anchor: string | undefined, shown: string) => {
    citations++;
    citing.add(file);
    if (!fileExists(path)) {
      problems.push({ file, line, message: `${shown}: no such file` });
      return;
    }
    if (anchor && path.endsWith('.md') && !headingsOf(root, path).some((h) => h.slug === anchor)) {
      problems.push({ file, line, message: `${shown}: ${path} has no heading with the anchor #${anchor}` });
    }
  };

  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    const lines = text.split('\n');

    // (a) documents outside the repository
    if (file !== SELF) {
      lines.forEach((content, i) => {
        const outside = OUTSIDE.find(({ pattern }) => pattern.test(content));
        if (!outside) return;
        problems.push({ file, line: i + 1, message: `cites ${outside.what}, which a clone does not have` });
      });
    }

    // (b) and (c) docs/….md citations
    for (const match of text.matchAll(DOC_PATH)) {
      const [whole, path = '', hash] = match;
      const line = lineOf(text, match.index);
      checkTarget(file, line, path, hash?.slice(1), whole);
      // The rest of the line, not consumed by the match, so that a citation later on the line is found too.
      const end = match.index + whole.length;
      const lineEnd = text.indexOf('\n', end);
      const rest = text.slice(end, lineEnd === -1 ? undefined : lineEnd);
      if (rest.startsWith(', ') && (HEADING_CITED as readonly string[]).includes(path) && fileExists(path)) {
        const after = rest.slice(2);
        // Only a capitalised word starts a heading citation; `docs/product.md, which …` is prose.
        if (/^[A-Z]/.test(after) && citedHeading(headingsOf(root, path), after) === null) {
          problems.push({ file, line, message: `${path} has no heading that "${after.trim()}" names` });
        }
      }
    }

    // (b) decision records by number
    for (const match of text.matchAll(ADR_NUMBER)) {
      citations++;
      citing.add(file);
      if (!adrNumbers.has(match[1] ?? '')) {
        problems.push({ file, line: lineOf(text, match.index), message: `${match[0]}: no such decision record` });
      }
    }

    // (b) relative links of Markdown files
    if (file.endsWith('.md')) {
      for (const match of text.matchAll(MD_LINK)) {
        const target = match[1] ?? '';
        if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('/')) continue;
        const [pathPart = '', anchor] = target.split('#');
        const line = lineOf(text, match.index);
        if (pathPart === '') {
          if (anchor && !headingsOf(root, file).some((h) => h.slug === anchor)) {
            problems.push({ file, line, message: `link #${anchor}: no such heading in this file` });
          }
          continue;
        }
        const path = normalize(join(dirname(file), decodeURIComponent(pathPart)));
        checkTarget(file, line, path, anchor, `link ${target}`);
      }
    }
  }
  return { problems, citations, filesWithCitations: citing.size, files: files.length };
}

/** Tracked text files: .ts, .tsx, .md, .json (lock files aside) and `.ci/run`. */
function trackedTextFiles(root: string): string[] {
  const listed = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0');
  return listed.filter(
    (file) =>
      file !== '' &&
      (EXTRA_FILES.has(file) || (TEXT_FILE.test(file) && !LOCKFILES.has(file.split('/').at(-1) ?? ''))) &&
      existsSync(join(root, file)),
  );
}

function main(): void {
  const root = execFileSync('git', ['rev-parse', '--show-toplevel'], { encoding: 'utf8' }).trim();
  const report = checkFiles(root, trackedTextFiles(root));
  for (const p of report.problems) console.error(`${p.file}:${p.line}: ${p.message}`);
  console.log(
    `check-citations: ${report.citations} citations in ${report.filesWithCitations} files checked (${report.files} text files scanned)`,
  );
  if (report.problems.length > 0) {
    console.error(`check-citations: ${report.problems.length} problem(s)`);
    process.exit(1);
  }
}

main();
