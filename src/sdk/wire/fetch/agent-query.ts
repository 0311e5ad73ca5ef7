/**
 * The fetch of an agent's calls with the query of the URL the agent was named by (`?key=…`, how
 * hosted agents often take an API key): each of its parameters is added to every call on the card's
 * origin that does not set it itself. Like the credentials, it never goes to another origin.
 */
export function withAgentQuery(fetchImpl: typeof fetch, cardUrl: string): typeof fetch {
  const card = new URL(cardUrl);
  const params = [...card.searchParams];
  if (params.length === 0) return fetchImpl;
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.origin !== card.origin) return fetchImpl(input, init);
    for (const [name, value] of params) if (!url.searchParams.has(name)) url.searchParams.append(name, value);
    return fetchImpl(input instanceof Request ? new Request(url, input) : url.href, init);
  };
}
