/**
 * Hosts that name no machine: the "every interface" addresses a server binds to (a container's
 * `0.0.0.0`, `[::]`), which some agents put in their card as is. Called as they are, they reach the
 * caller's own machine, never the agent.
 */
const UNSPECIFIED: ReadonlySet<string> = new Set(['0.0.0.0', '[::]']);

/**
 * The URL to call for an interface whose host is an unspecified address: the host the card came
 * from, with the interface's scheme, port and path. Undefined when the interface names a real host
 * (or the card itself came from an unspecified address: there is nothing better to call).
 */
export function hostOfCard(interfaceUrl: string, cardUrl: string): string | undefined {
  const target = new URL(interfaceUrl);
  if (!UNSPECIFIED.has(target.hostname)) return undefined;
  const card = new URL(cardUrl);
  if (UNSPECIFIED.has(card.hostname)) return undefined;
  target.hostname = card.hostname;
  return target.href;
}
