import { A2AError } from '../../errors.js';
import { longestMatch, parseScope, type UrlScope } from '../credentials/url-scope.js';

/** A protocol binding this client speaks, as cards name it. */
export type ProtocolBinding = 'JSONRPC' | 'HTTP+JSON' | 'GRPC';

/** The protocol bindings in the client's order of preference (the SDK's v0.3 HTTP+JSON path drops `append`; gRPC needs Node). */
export const BINDING_PREFERENCE: readonly ProtocolBinding[] = ['JSONRPC', 'HTTP+JSON', 'GRPC'];

/**
 * The binding to use per agent, keyed like `credentials`: an origin (`https://agent.example`) or a URL
 * prefix (`https://gateway.example/agents/travel/`); an agent takes the entry whose key is the longest
 * prefix of its card URL (prefixes match whole path segments). Such an agent is called on an interface
 * of that binding only (the newest protocol version of it, then the card's order), and a card that
 * offers none is a `card` error. Agents without an entry get the usual choice: the newest protocol
 * version, then JSON-RPC, HTTP+JSON, gRPC, then the card's order.
 *
 * ```ts
 * createA2A({ bindings: { 'https://agent.example/': 'GRPC' } });
 * ```
 */
export type BindingsOption = Readonly<Record<string, ProtocolBinding>>;

/** One checked entry of the option. */
interface BindingEntry extends UrlScope {
  binding: ProtocolBinding;
}

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
      if (!(BINDING_PREFERENCE as readonly string[]).includes(upper)) {
        throw invalid(key, `the binding must be one of ${BINDING_PREFERENCE.join(', ')}`);
      }
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
