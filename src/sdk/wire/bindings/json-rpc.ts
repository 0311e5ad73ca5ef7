import { JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { httpBinding } from './http.js';

/** JSON-RPC over HTTP: the client's first choice; its streams are read by the client's own reader. */
export const jsonRpc = httpBinding({
  name: 'JSONRPC',
  preference: 1,
  transport: (options) => new JsonRpcTransportFactory(options),
  streams: 'own-reader',
});
