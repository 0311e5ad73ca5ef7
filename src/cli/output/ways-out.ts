import type { CardInterface, CardSummary } from '../../node/index.js';

/** The bindings `--transport` picks, by the name a card gives them. */
const TRANSPORTS: ReadonlySet<string> = new Set(['JSONRPC', 'HTTP+JSON', 'GRPC']);

/**
 * The other interfaces a card offers when the one a4h chose cannot be reached, each with the flags
 * that pick it (`--transport BINDING`, and `--a2a-version 0.3` for one older than 1.0); undefined when
 * the card offers no other binding. One per binding other than the chosen one's: the one `--transport`
 * would pick (the card's first of that binding at 1.0 or above, else its first). Nothing is switched
 * by itself: the card's order stays, and the person decides.
 */
export function otherInterfaces(card: CardSummary): string | undefined {
  const offered = card.interfaces ?? [];
  const chosen = offered.find((i) => i.chosen)?.binding.toUpperCase() ?? card.transport.toUpperCase();
  const byBinding = new Map<string, CardInterface>();
  for (const i of offered) {
    const binding = i.binding.toUpperCase();
    if (binding === chosen || !TRANSPORTS.has(binding)) continue;
    const kept = byBinding.get(binding);
    if (kept === undefined || (older(kept) && !older(i))) byBinding.set(binding, i);
  }
  if (byBinding.size === 0) return undefined;
  const ways = [...byBinding].map(([binding, i]) => {
    const flags = `--transport ${binding}${older(i) ? ' --a2a-version 0.3' : ''}`;
    return `${binding} ${i.protocolVersion} at ${i.url} (${flags})`;
  });
  return `the card also offers ${ways.join(', ')}`;
}

/** An interface of a protocol version before 1.0 (the v0.3 generation). */
function older(i: CardInterface): boolean {
  return Number.parseInt(i.protocolVersion || '0', 10) < 1;
}
