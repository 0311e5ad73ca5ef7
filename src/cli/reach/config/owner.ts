import { statSync, type Stats } from 'node:fs';

/**
 * Who may steer a4h's settings: a configuration file (or a folder the local `.env` is looked for in)
 * is the person's own when their user owns it and, for a file, nobody else may write it. POSIX only:
 * on Windows, which has no such modes, every file counts as the person's own.
 */
export interface Owner {
  /** The user a4h runs as; undefined where there are no user ids (Windows). */
  uid: number | undefined;
}

/** The user this process runs as. */
export function currentOwner(): Owner {
  return { uid: typeof process.getuid === 'function' ? process.getuid() : undefined };
}

/** Why `path` (already stat'ed) is not the person's own to read settings from; undefined when it is. */
export function notOwnProblem(owner: Owner, stats: Stats, what: 'file' | 'folder'): string | undefined {
  if (owner.uid === undefined) return undefined;
  if (stats.uid !== owner.uid) return `it is owned by another user (uid ${stats.uid}), not by you (uid ${owner.uid})`;
  if (what === 'file' && (stats.mode & 0o022) !== 0)
    return `others can write it (mode ${(stats.mode & 0o777).toString(8).padStart(4, '0')})`;
  return undefined;
}

/** `statSync` that answers undefined for a path that is not there (or not reachable). */
export function statIfPresent(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}
