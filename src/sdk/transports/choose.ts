import type { Client } from '@a2a-js/sdk/client';
import { JsonRpcReaderTransport } from './json-rpc-reader.js';
import { SdkClientTransport } from './sdk-client.js';
import type { AgentWire, StreamReader, Transport } from './transport.js';

/**
 * The transport of one agent in one generation, chosen once when it is resolved: a JSON-RPC agent's
 * streams are read by the client's own reader (unless `reader` is `sdk`: the binding says whose
 * streams it reads); every other binding (HTTP+JSON, gRPC), and every unary call, goes through the
 * SDK's client made for it.
 */
export function chooseTransport(wire: AgentWire, client: Client, reader: StreamReader): Transport {
  const ownReader = reader === 'a4h' && wire.binding.ownReader;
  return ownReader ? new JsonRpcReaderTransport(wire, client) : new SdkClientTransport(wire, client);
}
