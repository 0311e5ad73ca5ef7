/** Where an option's entry applies: an origin, and a path prefix below it (`''` for the whole origin). */
export interface UrlScope {
  origin: string;
  /** The path prefix without a trailing slash; `''` matches the whole origin. */
  path: string;
}

/**
 * The scope an option's key names: an http(s) origin (`https://agent.example`) or URL prefix
 * (`https://gateway.example/agents/travel/`). Returns what is wrong with it as a string instead.
 */
export function scopeOf(key: string): UrlScope | string {
  let url: URL;
  try {
    url = new URL(key);
  } catch {
    return 'the key must be an http(s) origin or URL prefix';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'the key must be an http(s) origin or URL prefix';
  if (url.username || url.password || url.search || url.hash) return 'the key must carry no user, password, query or fragment';
  return { origin: url.origin, path: url.pathname.replace(/\/+$/, '') };
}

/** The entry for a URL: same origin, and the longest path prefix (on segment boundaries) of its path. */
export function entryFor<E extends UrlScope>(entries: readonly E[], url: string): E | undefined {
  if (entries.length === 0) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  let best: E | undefined;
  for (const entry of entries) {
    if (entry.origin !== parsed.origin) continue;
    const inside = entry.path === '' || parsed.pathname === entry.path || parsed.pathname.startsWith(`${entry.path}/`);
    if (inside && (best === undefined || entry.path.length > best.path.length)) best = entry;
  }
  return best;
}
