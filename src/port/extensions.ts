import { A2AError, type A2AOperation } from '../errors.js';

/**
 * Extensions activated per agent: each key an origin (`https://agent.example`) or a URL prefix
 * (`https://gateway.example/agents/travel/`), each value the extension URIs every call to such an
 * agent activates. An agent takes the entry whose key is the longest prefix of its card URL (as
 * credentials do); a turn's own extensions are added to them.
 */
export type ExtensionsOption = Readonly<Record<string, readonly string[]>>;

/** The most extensions one turn activates; the longest URI. */
const MAX_EXTENSIONS = 64;
const MAX_URI_CHARS = 2_048;
/** An absolute URI with nothing that cannot go in a comma-separated header value: no whitespace, no comma, no control character. */
const URI = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s,\0-\x1f\x7f]+$/;

/** No extension: one shared empty list, so a turn without any pays for nothing. */
export const NO_EXTENSIONS: readonly string[] = Object.freeze([]);

/**
 * Checks a list of extension URIs (`where` names it in the error: `extensions`, say, or
 * `the extensions of "https://h"`): an array of absolute URIs, each without whitespace or a comma
 * (the header separates them with commas), at most 64. Throws an A2AError of `kind` (`input` for a
 * turn's, `config` for an option's); returns the list.
 */
export function checkExtensionUris(list: unknown, where: string, kind: 'input' | 'config', operation: A2AOperation): readonly string[] {
  const refuse = (what: string) => new A2AError({ kind, operation, message: `${where} ${what}` });
  if (!Array.isArray(list)) throw refuse('must be an array of extension URIs');
  if (list.length > MAX_EXTENSIONS) throw refuse(`must list at most ${MAX_EXTENSIONS} URIs`);
  for (const uri of list) {
    if (typeof uri !== 'string' || uri.length > MAX_URI_CHARS || !URI.test(uri)) {
      throw refuse(`must hold absolute URIs without spaces or commas (${JSON.stringify(String(uri).slice(0, 80))} is not one)`);
    }
  }
  return list as readonly string[];
}

/** The agent's extensions, then the turn's that are not among them: the URIs the turn's calls activate. */
export function mergeExtensions(agent: readonly string[], turn: readonly string[] | undefined): readonly string[] {
  if (turn === undefined || turn.length === 0) return agent;
  if (agent.length === 0) return turn;
  return [...new Set([...agent, ...turn])];
}
