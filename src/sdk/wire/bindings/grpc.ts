import { ClientFactory } from '@a2a-js/sdk/client';
import type { CredentialPlan } from '../../http/credentials/plan.js';
import { bothExtensionNamesOnGrpc } from '../../http/extensions/headers.js';
import type { Binding, BindingSetup, OpenBinding } from './binding.js';
import { onHost, parseGrpcAddress, type GrpcAddress } from './grpc/address.js';
import { GrpcChannels } from './grpc/channels.js';
import { credentialsAsMetadata } from './grpc/metadata.js';
import { loadGrpc, type GrpcModules } from './grpc/modules.js';
import { classifyGrpcStatus, GRPC_ERRORS, UNIMPLEMENTED } from './grpc/status.js';
import { GRPC_NODE_ONLY, grpcUnavailable } from './grpc/support.js';

const NAME = 'GRPC';

/**
 * gRPC, Node only: the last choice. An interface's address is `host:port` or a URL
 * (`grpc/address.ts`); its calls go through the SDK's gRPC transport on pooled channels, loaded with
 * `@grpc/grpc-js` the first time one of its interfaces wins (the Node entry's gRPC support), with the
 * credentials as call metadata; a v1.0 stream's messages go straight to the turn (`grpc/direct.ts`);
 * its statuses have rows of their own.
 */
export const grpc: Binding<typeof NAME> = {
  name: NAME,
  preference: 3,
  streams: 'direct',
  address: (url) => {
    const address = parseGrpcAddress(url);
    return address && { shown: address.url, scope: address.origin, target: address.target };
  },
  unreadable: (url) => `its gRPC address ${JSON.stringify(url)} is not host:port, grpc://host:port or https://host:port`,
  onHost: (url, host) => onHost(url, parseGrpcAddress(url)!, host),
  errors: GRPC_ERRORS,
  classify: classifyGrpcStatus,
  otherGeneration: (error) => error.grpcCode === UNIMPLEMENTED,
  open: openGrpc,
};

/** gRPC in one factory of ports: available with gRPC support, its channels pooled and closed by `SdkPorts.close`. */
function openGrpc(setup: BindingSetup): OpenBinding {
  const channels = new GrpcChannels();
  const support = setup.grpc;
  return {
    available: support ? true : GRPC_NODE_ONLY,
    prepare: async () => {
      if (support === undefined) throw grpcUnavailable(GRPC_NODE_ONLY);
      const modules = await loadGrpc(support);
      return (url, _fetch, plan) => grpcFactory(channels, modules, parseGrpcAddress(url)!, plan);
    },
    close: () => channels.close(),
  };
}

/**
 * The SDK's factory of a gRPC agent's clients: the pooled gRPC transport; the credentials, and a v0.3
 * call's extensions under both names, as each call's metadata.
 */
function grpcFactory(channels: GrpcChannels, modules: GrpcModules, address: GrpcAddress, plan: CredentialPlan | undefined): ClientFactory {
  return new ClientFactory({
    transports: [channels.factoryFor(modules, address)],
    preferredTransports: [NAME],
    clientConfig: { interceptors: [bothExtensionNamesOnGrpc, ...(plan ? [credentialsAsMetadata(plan, address)] : [])] },
  });
}
