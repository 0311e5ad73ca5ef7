import { A2AError } from '../../../errors.js';
import { longestMatch, parseScope, type UrlScope } from '../../../port/url-scope.js';
import type { BindingsOption, ProtocolBinding } from './options.js';
import { BINDINGS } from './registry.js';

/** One checked entry of the option. */
interface BindingEntry extends UrlScope {
  binding: ProtocolBinding;
}

const NAMES: readonly string[] = BINDINGS.map((binding) => binding.name);

function invalid(key: string, what: string): A2AError {
  return new A2AError({ kind: 'config', operation: 'options', message: `invalid bindings entry ${JSON.stringify(key)}: ${what}` });
}

/** The `bindings` option, checked once (a bad entry is a `config` error naming it), and the lookup by card URL. */
export class Bindings {
  private readonly entries: BindingEntry[];

  constructor(option: BindingsOption | undefined) {
    if (option !== undefined && (typeof option !== 'object' || option === null)) {
      throw invalid('(bindings)', 'must be an object keyed by origin or URL prefix');
    }
    this.entries = Object.entries(option ?? {}).map(([key, binding]) => {
      const upper = typeof binding === 'string' ? binding.toUpperCase() : '';
      if (!NAMES.includes(upper)) throw invalid(key, `the binding must be one of ${NAMES.join(', ')}`);
      const scope = parseScope(key);
      if ('problem' in scope) throw invalid(key, scope.problem);
      return { ...scope, binding: upper as ProtocolBinding };
    });
  }

  /** The binding forced for the agent at `cardUrl`, if any. */
  forAgent(cardUrl: string): ProtocolBinding | undefined {
    return longestMatch(this.entries, cardUrl)?.binding;
  }
}
