/**
 * `a4h-a2a/node`: the Node entry. Everything in the core, plus the pieces that need Node: the
 * undici-based fetch with timeouts and pooling.
 */
export * from '../index.js';
export { createNodeFetch } from './fetch.js';
export type { NodeFetch, NodeFetchOptions } from './fetch.js';
