/**
 * `a4h-a2a/node`: the Node entry. Everything in the core, plus the pieces that need Node: the
 * undici-based fetch with timeouts, pooling and mutual TLS per agent, and a `createA2A` that reads the identity secret
 * from `A4H_IDENTITY_SECRET`.
 *
 * @packageDocumentation
 */
export * from '../index.js';
export { createNodeFetch } from './fetch.js';
export type { NodeFetch, NodeFetchOptions } from './fetch.js';
export { createA2A, IDENTITY_SECRET_ENV, PREVIOUS_IDENTITY_SECRETS_ENV, previousSecretsFromEnv } from './create-a2a.js';
export { readJwksFile } from './jwks-file.js';
export { grpcSupport } from './grpc.js';
export type { GrpcSupportOptions } from './grpc.js';
export type { GrpcWireEvent, GrpcWireWatch } from '../sdk/wire/bindings/grpc/wire.js';
export type { ClientTls, ClientTlsOption, Pem } from './tls.js';
export type { NodeA2AOptions } from './create-a2a.js';
export { pushHandler } from './push-handler.js';
export type { NodePushHandler, PushHandlerOptions } from './push-handler.js';
