/** Colour for a terminal that wants it: only on a TTY, and never when NO_COLOR is set. */
export interface Style {
  dim(text: string): string;
  bold(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

const plain: Style = { dim: (t) => t, bold: (t) => t, red: (t) => t, yellow: (t) => t, cyan: (t) => t };

const wrap = (open: number, close: number) => (text: string) => `\x1b[${open}m${text}\x1b[${close}m`;
const ansi: Style = { dim: wrap(2, 22), bold: wrap(1, 22), red: wrap(31, 39), yellow: wrap(33, 39), cyan: wrap(36, 39) };

export function styleFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): Style {
  return stream.isTTY === true && (env['NO_COLOR'] ?? '') === '' ? ansi : plain;
}
