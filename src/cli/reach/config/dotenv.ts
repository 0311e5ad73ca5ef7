/**
 * The `.env` (dotenv) format the configuration files use: one `KEY=value` per line, `#` comments and
 * blank lines ignored, an optional `export ` before the key, values optionally in single or double
 * quotes (double quotes understand `\n` and `\"`); an unquoted value ends at ` #`.
 */
export interface DotenvFile {
  /** The keys and values, in file order (a later line wins). */
  values: Map<string, string>;
  /** The 1-based numbers of lines that are neither a comment nor `KEY=value`. */
  badLines: number[];
}

const LINE = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/;

/** Parses a `.env` file's text. Never throws: a malformed line is counted, not fatal. */
export function parseDotenv(text: string): DotenvFile {
  const values = new Map<string, string>();
  const badLines: number[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    if (raw.trim() === '' || raw.trimStart().startsWith('#')) return;
    const match = LINE.exec(raw);
    if (!match) {
      badLines.push(index + 1);
      return;
    }
    values.set(match[1]!, unquote(match[2]!));
  });
  return { values, badLines };
}

function unquote(value: string): string {
  const quote = value[0];
  if ((quote === '"' || quote === "'") && value.length >= 2 && value.endsWith(quote)) {
    const inner = value.slice(1, -1);
    return quote === "'" ? inner : inner.replace(/\\n/g, '\n').replace(/\\(["\\])/g, '$1');
  }
  const comment = value.search(/\s#/);
  return (comment < 0 ? value : value.slice(0, comment)).trimEnd();
}
