/**
 * Where a replica's push receiver is, for the replica (push.mjs) and for haproxy's routing
 * (haproxy.mjs): `/a2a/push/<the replica's name>`. No import of the library: haproxy's configuration
 * is written without it.
 */

/** Where a replica's receiver is mounted: this, then the replica's name. */
export const PUSH_PATH = '/a2a/push/';

/** A replica's name as it may stand in a URL path and in haproxy's configuration (a `server` name). */
export const PUSH_NAME = /^[A-Za-z0-9._-]{1,64}$/;

/** The path of replica `name`'s receiver. @param {string} name */
export function pushPathOf(name) {
  if (!PUSH_NAME.test(name))
    throw new Error(
      `with push, a replica's name is 1 to 64 letters, digits, '.', '_' or '-', not ${JSON.stringify(name)}: it is in its receiver's path`,
    );
  return `${PUSH_PATH}${name}`;
}

/** Whether `pathname` is a receiver's path (any replica's: haproxy sends a down replica's pushes elsewhere). @param {string} pathname */
export function isPushPath(pathname) {
  return pathname.startsWith(PUSH_PATH) && PUSH_NAME.test(pathname.slice(PUSH_PATH.length));
}
