import type { Binding, BindingSetup, ClientMaker, OpenBinding } from './binding.js';
import { BINDINGS, sdkFactory } from './registry.js';

/** The clients of a binding over HTTP: the SDK's factory over those bindings, on the agent's fetch. */
const httpClients: ClientMaker = (_url, fetch) => sdkFactory(fetch);

/**
 * The bindings of one factory of ports: whether each can be chosen, what an interface of each is
 * called with once chosen, and closing what they opened (`SdkPorts.close`).
 */
export class OpenBindings {
  private readonly open: ReadonlyMap<Binding, OpenBinding>;

  constructor(setup: BindingSetup) {
    this.open = new Map(BINDINGS.flatMap((binding) => (binding.open ? [[binding, binding.open(setup)] as const] : [])));
  }

  /** `true`, or why the binding's interfaces cannot be chosen. */
  available(binding: Binding): true | string {
    return this.open.get(binding)?.available ?? true;
  }

  /** What the clients of a chosen interface of `binding` are made with; rejects when that cannot be loaded. */
  prepare(binding: Binding): Promise<ClientMaker> {
    return this.open.get(binding)?.prepare() ?? Promise.resolve(httpClients);
  }

  /** Closes what every binding opened. */
  async close(): Promise<void> {
    await Promise.all([...this.open.values()].map((open) => open.close()));
  }
}
