/**
 * `npm ci` on the oldest Node the package supports prints no EBADENGINE warning: every package in
 * the lock file (dev tools included) accepts the floor of the package's own `engines.node`.
 */
import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const read = (path: string) => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as Record<string, unknown>;

describe('engines', () => {
  it("every locked package accepts the package's Node floor", () => {
    const pkg = read('../package.json') as { engines: { node: string } };
    const floor = semver.minVersion(pkg.engines.node)!.version;
    expect(floor).toBe('20.19.0');
    const lock = read('../package-lock.json') as { packages: Record<string, { version?: string; engines?: { node?: string } }> };
    const refusing = Object.entries(lock.packages)
      .filter(([path, entry]) => path !== '' && typeof entry.engines?.node === 'string' && !semver.satisfies(floor, entry.engines.node))
      .map(([path, entry]) => `${path.replace(/^.*node_modules\//, '')}@${entry.version} wants node ${entry.engines!.node}`);
    expect(refusing).toEqual([]);
  });
});
