/** A protocol binding this client speaks, as cards name it (the registry, `registry.ts`, has one unit for each). */
export type ProtocolBinding = 'JSONRPC' | 'HTTP+JSON' | 'GRPC';

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

/**
 * How an agent's interface is chosen when the caller wants the card's preference rather than a4h's:
 * the card's first usable interface (a card lists its preferred one first), or, with `prefer`, the first
 * of the caller's bindings the card offers (the card's order when it offers none of them); with
 * `minVersion`, no interface of an older protocol version (nor a switch to one when the agent answers in
 * it): a card with none left is a `VersionNotSupportedError` (-32009). The A2A CLI specification's choice
 * (its §11), which `a4h send` makes.
 */
export interface InterfaceOrder {
  /** The bindings the caller prefers, highest first. */
  prefer?: readonly ProtocolBinding[];
  /**
   * The oldest protocol version that may be chosen, `major.minor` (`1.0`). The versions before 1.0 are one
   * generation, all spoken on the v0.3 wire: `0.3` admits a card that says `0.1.0` or `0.2.0` too.
   */
  minVersion?: string;
}
