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
