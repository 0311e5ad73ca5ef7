/**
 * Where a per-agent option entry applies, keyed as the `credentials` option is: an origin
 * (`https://agent.example`) or a URL prefix (`https://gateway.example/agents/travel/`), matched on
 * whole path segments; an agent takes the entry with the longest prefix of its card URL.
 */
export interface UrlScope {
  origin: string;
  /** The path prefix without a trailing slash; `''` matches the whole origin. */
  path: string;
}

/** The scope a key names, or why it names none (for the caller's `config` error). */
export function parseScope(key: string): UrlScope | { problem: string } {
  let url: URL;
  try {
    url = new URL(key);
  } catch {
    return { problem: 'the key must be an http(s) origin or URL prefix' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { problem: 'the key must be an http(s) origin or URL prefix' };
  if (url.username || url.password || url.search || url.hash) return { problem: 'the key must carry no user, password, query or fragment' };
  return { origin: url.origin, path: url.pathname.replace(/\/+$/, '') };
}

/** The entry for a URL: same origin, and the longest path prefix (on segment boundaries) of its path. */
export function longestMatch<T extends UrlScope>(entries: readonly T[], url: string): T | undefined {
  if (entries.length === 0) return undefined; // the common case: no option, no URL to parse
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  let best: T | undefined;
  for (const entry of entries) {
    if (entry.origin !== parsed.origin) continue;
    const inside = entry.path === '' || parsed.pathname === entry.path || parsed.pathname.startsWith(`${entry.path}/`);
    if (inside && (best === undefined || entry.path.length > best.path.length)) best = entry;
  }
  return best;
}
