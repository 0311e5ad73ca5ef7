/**
 * `a4h-a2a/node`: the Node entry. Everything in the core, plus (as they land) the pieces that need
 * Node: the undici-based fetch and reading the identity secret from the environment.
 */
export * from '../index.js';
