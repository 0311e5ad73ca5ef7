import { RestTransportFactory } from '@a2a-js/sdk/client';
import { httpBinding } from './http.js';

/** HTTP+JSON: after JSON-RPC (the SDK's v0.3 HTTP+JSON path drops `append`, carried across by `fetch/rest-append.ts`). */
export const httpJson = httpBinding({
  name: 'HTTP+JSON',
  preference: 2,
  transport: (options) => new RestTransportFactory(options),
  streams: 'sdk',
});
