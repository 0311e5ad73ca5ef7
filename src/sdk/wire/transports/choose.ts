import type { StreamWay } from '../bindings/binding.js';
import { DirectStreamTransport } from './direct-stream.js';
import { JsonRpcReaderTransport } from './json-rpc-reader.js';
import { SdkClientTransport } from './sdk-client.js';
import type { AgentWire, SdkClientOf, StreamReader, Transport } from './transport.js';

/** The transport of each way a binding's streams are read: no binding is named here, each names its way. */
const TRANSPORTS: { readonly [way in StreamWay]: new (wire: AgentWire, client: SdkClientOf) => Transport } = {
  'own-reader': JsonRpcReaderTransport,
  direct: DirectStreamTransport,
  sdk: SdkClientTransport,
};

/**
 * The transport of one agent in one generation, chosen once when it is resolved, by the way its
 * binding reads streams ({@link streamWay}): a JSON-RPC agent's streams are read by the client's own
 * reader, a v1.0 gRPC agent's streams' messages are handed straight to the turn; every other binding
 * (HTTP+JSON, v0.3 gRPC), and every unary call, goes through the SDK's client made for it. Our
 * reader's transport makes the SDK's client when a call first needs it (a turn's streams and
 * `ListTasks` never do); every other transport has it made here, so a client that cannot be made
 * fails the agent's resolution.
 */
export async function chooseTransport(wire: AgentWire, client: SdkClientOf, reader: StreamReader): Promise<Transport> {
  const way = streamWay(wire, reader);
  if (way !== 'own-reader') await client();
  return new TRANSPORTS[way](wire, client);
}

/** How this agent's streams are read: as its binding says, but by the SDK's client under `reader: 'sdk'`, and in v0.3 unless our own reader reads them. */
function streamWay(wire: AgentWire, reader: StreamReader): StreamWay {
  if (reader === 'sdk') return 'sdk';
  const way = wire.binding.streams;
  return way === 'direct' && wire.legacy ? 'sdk' : way;
}
