import { CONNECTIONS, type Contender, type Driver } from './types.js';

/**
 * Loads only the contender's own modules, so each process imports what that contender needs;
 * `connections` is the pool's size per origin.
 */
export async function loadDriver(contender: Contender, connections: number = CONNECTIONS): Promise<Driver> {
  switch (contender) {
    case 'a4h':
      return (await import('./a4h.js')).a4hDriver('a4h', connections);
    case 'a4h-sdk-reader':
      return (await import('./a4h.js')).a4hDriver('sdk', connections);
    case 'sdk':
      return (await import('./sdk.js')).sdkDriver(connections);
    case 'floor':
      return (await import('./floor.js')).floorDriver(connections);
    case 'a4h-grpc':
      return (await import('./grpc.js')).a4hGrpcDriver('a4h');
    case 'a4h-grpc-sdk-reader':
      return (await import('./grpc.js')).a4hGrpcDriver('sdk');
    case 'sdk-grpc':
      return (await import('./grpc.js')).sdkGrpcDriver();
  }
}
