import type { Contender, Driver } from './types.js';

/** Loads only the contender's own modules, so each process imports what that contender needs. */
export async function loadDriver(contender: Contender): Promise<Driver> {
  switch (contender) {
    case 'a4h':
      return (await import('./a4h.js')).a4hDriver();
    case 'sdk':
      return (await import('./sdk.js')).sdkDriver();
    case 'floor':
      return (await import('./floor.js')).floorDriver();
  }
}
