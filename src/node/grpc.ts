import { loadGrpcWith } from '../sdk/bindings/grpc/node.js';
import type { GrpcSupport } from '../sdk/bindings/grpc/support.js';

/**
 * gRPC support for `createSdkPorts({ grpc: grpcSupport() })`; the Node `createA2A` uses it by itself.
 * `@grpc/grpc-js` and `@bufbuild/protobuf` (optional peer dependencies) and the SDK's gRPC client
 * are loaded the first time an agent's chosen interface is gRPC, never before; without them, such an
 * agent's turn fails with a `card` error naming the packages to install.
 */
export function grpcSupport(): GrpcSupport {
  return loadGrpcWith();
}
