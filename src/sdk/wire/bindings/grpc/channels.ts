import type { AgentCard } from '@a2a-js/sdk';
import type { Transport as SdkTransport, TransportFactory } from '@a2a-js/sdk/client';
import type { GrpcAddress } from './address.js';
import type { GrpcModules } from './modules.js';

/** The most channels one factory of ports keeps open; past it the oldest is closed. */
const MAX_CHANNELS = 256;

/**
 * The gRPC channels of one factory of ports: one per address, TLS mode and protocol generation,
 * shared by every agent resolved there (the card cache resolves an agent again when its card
 * expires: it gets the channel it had, not a new one), and all closed by {@link close}.
 */
export class GrpcChannels {
  private readonly open = new Map<string, { modules: GrpcModules; transport: Promise<SdkTransport> }>();
  private closed = false;

  /** The SDK's transport factory for `address`: each transport it makes is this pool's, for that address and generation. */
  factoryFor(modules: GrpcModules, address: GrpcAddress): TransportFactory {
    return {
      protocolName: 'GRPC',
      create: (_url: string, card: AgentCard) => this.transport(modules, address, isLegacy(card)),
    };
  }

  /** Closes every channel; a call made after it opens a new one (closed in turn by the next close). */
  async close(): Promise<void> {
    const all = [...this.open.values()];
    this.open.clear();
    await Promise.all(all.map(closeOne));
  }

  private transport(modules: GrpcModules, address: GrpcAddress, legacy: boolean): Promise<SdkTransport> {
    const key = `${address.url} ${legacy ? '0.3' : '1.0'}`;
    const kept = this.open.get(key);
    if (kept !== undefined) return kept.transport;
    if (this.open.size >= MAX_CHANNELS) {
      const [oldest] = this.open;
      if (oldest !== undefined) {
        this.open.delete(oldest[0]);
        void closeOne(oldest[1]);
      }
    }
    const transport = modules.transport(address, legacy);
    const entry = { modules, transport };
    this.open.set(key, entry);
    // A channel that could not be made is not kept.
    transport.catch(() => this.open.get(key) === entry && this.open.delete(key));
    return transport;
  }
}

function closeOne(entry: { modules: GrpcModules; transport: Promise<SdkTransport> }): Promise<void> {
  return entry.transport.then(
    (transport) => entry.modules.close(transport),
    () => undefined,
  );
}

/** Whether the SDK's factory was asked for the v0.3 generation (the one interface it is given says so). */
function isLegacy(card: AgentCard): boolean {
  const version = card.supportedInterfaces?.[0]?.protocolVersion ?? '1.0';
  return Number.parseInt(version, 10) < 1;
}
