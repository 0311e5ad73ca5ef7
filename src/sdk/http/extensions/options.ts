import { A2AError } from '../../../errors.js';
import { checkExtensionUris, mergeExtensions, NO_EXTENSIONS, type ExtensionsOption } from '../../../port/extensions.js';
import { longestMatch, parseScope, type UrlScope } from '../../../port/url-scope.js';

export type { ExtensionsOption } from '../../../port/extensions.js';

interface Entry extends UrlScope {
  uris: readonly string[];
}

/** The `extensions` option, checked once (a bad entry throws a `config` error), and the URIs each turn's calls activate. */
export class AgentExtensions {
  private readonly entries: readonly Entry[];

  constructor(option: ExtensionsOption | undefined) {
    this.entries = option === undefined ? [] : checkOption(option);
  }

  /** The URIs of a turn to the agent at `cardUrl`: its entry's, then the turn's own (checked by the caller). */
  forTurn(cardUrl: string, turn: readonly string[] | undefined): readonly string[] {
    const agent = longestMatch(this.entries, cardUrl);
    return mergeExtensions(agent?.uris ?? NO_EXTENSIONS, turn);
  }
}

function checkOption(option: ExtensionsOption): Entry[] {
  if (typeof option !== 'object' || option === null || Array.isArray(option)) {
    throw new A2AError({ kind: 'config', operation: 'options', message: 'extensions must be an object keyed by origin or URL prefix' });
  }
  return Object.entries(option).map(([key, uris]) => {
    const scope = parseScope(key);
    if ('problem' in scope) {
      throw new A2AError({
        kind: 'config',
        operation: 'options',
        message: `invalid extensions for ${JSON.stringify(key)}: ${scope.problem}`,
      });
    }
    return { ...scope, uris: [...checkExtensionUris(uris, `the extensions of ${JSON.stringify(key)}`, 'config', 'options')] };
  });
}
