import { A2AError, type A2AOperation } from '../../../errors.js';
import type { CardSummary } from '../../../port/card.js';

/**
 * The `input` error of a call to an agent whose card marks extensions `required` that the call does
 * not activate, naming them; undefined when it activates them all (or the card requires none).
 */
export function missingExtensions(summary: CardSummary, activated: readonly string[], operation: A2AOperation): A2AError | undefined {
  const declared = summary.extensions;
  if (declared === undefined) return undefined;
  const missing = declared.filter((extension) => extension.required && !activated.includes(extension.uri)).map((e) => e.uri);
  if (missing.length === 0) return undefined;
  const them = missing.length === 1 ? `the extension ${missing[0]}` : `the extensions ${missing.join(', ')}`;
  return new A2AError({
    kind: 'input',
    operation,
    agent: summary.url,
    extensions: missing,
    message: `${operation} to ${summary.url}: the agent requires ${them} (its card says so), which this turn does not activate; activate ${missing.length === 1 ? 'it' : 'them'} with the extensions option or the turn's extensions`,
  });
}
