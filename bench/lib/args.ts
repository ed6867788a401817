/**
 * `--name value`, `--name=value` and bare `--flag` options; no dependency. Unknown options are an error so
 * that a typo never silently runs a one-hour job with defaults.
 */
export type ArgSpec = Record<string, 'string' | 'number' | 'boolean'>;
export type ParsedArgs<S extends ArgSpec> = {
  [K in keyof S]?: S[K] extends 'number' ? number : S[K] extends 'boolean' ? boolean : string;
};

export function parseArgs<S extends ArgSpec>(argv: readonly string[], spec: S): ParsedArgs<S> {
  const out: Record<string, string | number | boolean> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const match = /^--([a-z][a-z0-9-]*)(?:=(.*))?$/.exec(arg);
    if (!match) throw new Error(`Unexpected argument: ${arg}`);
    const [, name = '', inline] = match;
    const kind = spec[name];
    if (!kind)
      throw new Error(
        `Unknown option --${name} (known: ${Object.keys(spec)
          .map((k) => `--${k}`)
          .join(', ')})`,
      );
    if (kind === 'boolean') {
      out[name] = inline === undefined ? true : inline !== 'false';
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined) throw new Error(`--${name} needs a value`);
    if (kind === 'number') {
      // Accept 1_000_000, 1e6 and 1,000,000.
      const n = Number(value.replace(/[_,]/g, ''));
      if (!Number.isFinite(n)) throw new Error(`--${name} must be a number, got ${value}`);
      out[name] = n;
    } else {
      out[name] = value;
    }
  }
  return out as ParsedArgs<S>;
}
