import { DirectStreamTransport } from './direct-stream.js';
import { JsonRpcReaderTransport } from './json-rpc-reader.js';
import { SdkClientTransport } from './sdk-client.js';
import type { AgentWire, SdkClientOf, StreamReader, Transport } from './transport.js';

/**
 * The transport of one agent in one generation, chosen once when it is resolved: a JSON-RPC agent's
 * streams are read by the client's own reader, a v1.0 gRPC agent's streams' messages are handed
 * straight to the turn (unless `reader` is `sdk`: the binding says which it does); every other
 * binding (HTTP+JSON, v0.3 gRPC), and every unary call, goes through the SDK's client made for it.
 * Our reader's transport makes the SDK's client when a call first needs it (a turn's streams and
 * `ListTasks` never do); every other transport has it made here, so a client that cannot be made
 * fails the agent's resolution.
 */
export async function chooseTransport(wire: AgentWire, client: SdkClientOf, reader: StreamReader): Promise<Transport> {
  if (reader !== 'sdk' && wire.binding.ownReader) return new JsonRpcReaderTransport(wire, client);
  await client();
  if (reader === 'sdk') return new SdkClientTransport(wire, client);
  if (wire.binding.directStreams === true && !wire.legacy) return new DirectStreamTransport(wire, client);
  return new SdkClientTransport(wire, client);
}
