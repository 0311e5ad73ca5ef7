/**
 * `a4h-a2a/node` under a bundler's `browser` condition. The Node entry needs undici and `node:*`
 * modules, so a browser bundle that imports it gets this one sentence, when the bundle runs,
 * instead of dozens of unresolved imports. It carries the Node entry's names (the core's, and
 * stand-ins for the Node-only ones) so that a named import still bundles and reaches the sentence.
 */
import { A2AError } from '../errors.js';

/** The one sentence. */
export const NODE_ENTRY_IN_BROWSER =
  "a4h-a2a/node is for Node (it uses undici and node: modules); in a browser, import from 'a4h-a2a' instead";

function refuse(): never {
  throw new A2AError({ kind: 'config', message: NODE_ENTRY_IN_BROWSER });
}

refuse();

export * from '../index.js';
/** Never reached: the module throws when it loads. */
export const createNodeFetch = refuse;
/** Never reached: the module throws when it loads. */
export const readJwksFile = refuse;
export const grpcSupport = refuse;
/** Never reached: the module throws when it loads. */
export const IDENTITY_SECRET_ENV = 'A4H_IDENTITY_SECRET';
/** Never reached: the module throws when it loads. */
export const PREVIOUS_IDENTITY_SECRETS_ENV = 'A4H_PREVIOUS_IDENTITY_SECRETS';
