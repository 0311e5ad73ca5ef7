/**
 * For the tests that hold the library's readers (`validation.ts`) to the zod schemas they replaced:
 * what a reader does with a value, and generated changes to a valid document.
 */
import { inspect, isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { expect } from 'vitest';

/** What a reader does with a value: what it gives, or the message it refuses with. */
export function outcome(read: () => unknown): { gives: unknown } | { refuses: string } {
  try {
    return { gives: read() };
  } catch (error) {
    return { refuses: (error as Error).message };
  }
}

/**
 * `read` and the `reference` do the same with `doc`: give deep and strictly equal values (members set to
 * `undefined` and prototypes count), or refuse with the same message. Not vitest's `toStrictEqual`
 * alone: its check of the type reads a member named `constructor`.
 */
export function agree(read: (doc: unknown) => unknown, reference: (doc: unknown) => unknown, doc: unknown): void {
  const [actual, expected] = [outcome(() => read(doc)), outcome(() => reference(doc))];
  if (isDeepStrictEqual(actual, expected)) return;
  expect(actual).toStrictEqual(expected);
  expect.fail(`${inspect(actual, { depth: 9 })} is not ${inspect(expected, { depth: 9 })}`);
}

/**
 * A change to a document at one of its places (`at`, modulo their number: the root, each member and
 * each entry, depth first): set to another value, dropped, given a member, or (an array) grown to a
 * length with copies of its first entry.
 */
export type Change =
  | { kind: 'set' | 'add'; at: number; name: string; to: unknown }
  | { kind: 'drop'; at: number }
  | { kind: 'grow'; at: number; length: number };
type Place = (string | number)[];
type Node = Record<string | number, unknown>;

const isObject = (value: unknown): value is Node => typeof value === 'object' && value !== null;

function places(value: unknown, place: Place = []): Place[] {
  if (!isObject(value)) return [place];
  const keys = Object.keys(value).map((key) => (Array.isArray(value) ? Number(key) : key));
  return [place, ...keys.flatMap((key) => places(value[key], [...place, key]))];
}

/** A copy of `doc` with `changes` made in turn. */
export function changed(doc: unknown, changes: readonly Change[]): unknown {
  let root: unknown = structuredClone(doc);
  for (const change of changes) {
    const all = places(root);
    const place = all[change.at % all.length]!;
    const parent = place.slice(0, -1).reduce<unknown>((node, key) => (node as Node)[key], root) as Node;
    const last = place.at(-1);
    const here = last === undefined ? root : parent[last];
    if (change.kind === 'set') {
      if (last === undefined) root = change.to;
      else parent[last] = change.to;
    } else if (change.kind === 'drop') {
      if (Array.isArray(parent)) parent.splice(last as number, 1);
      else if (last !== undefined) delete parent[last];
    } else if (change.kind === 'add') {
      // Defined, not assigned: a member named `__proto__` is a member, as JSON.parse makes it.
      const member = { value: change.to, enumerable: true, writable: true, configurable: true };
      if (isObject(here) && !Array.isArray(here)) Object.defineProperty(here, change.name, member);
    } else if (change.kind === 'grow' && Array.isArray(here) && here.length > 0) {
      here.push(...Array.from({ length: change.length - here.length }, () => structuredClone(here[0])));
    }
  }
  return root;
}

/**
 * One to three changes: values set from `values`, members named from `names` added, places dropped;
 * or alone, an array grown to one of `lengths`. Alone, because an array both too long and with a bad
 * entry is left out (a known, accepted difference): the readers name the length (they do not walk a
 * hostile array), zod named the first bad entry; grown from a valid document, the copies are valid.
 */
export function changes(values: fc.Arbitrary<unknown>, names: fc.Arbitrary<string>, lengths: number[]): fc.Arbitrary<Change[]> {
  const change = fc.oneof(
    fc.record({ kind: fc.constant('set' as const), at: fc.nat(), name: fc.constant(''), to: values }),
    fc.record({ kind: fc.constant('drop' as const), at: fc.nat() }),
    fc.record({ kind: fc.constant('add' as const), at: fc.nat(), name: names, to: values }),
  );
  const grow = fc.record({ kind: fc.constant('grow' as const), at: fc.nat(), length: fc.constantFrom(...lengths) });
  return fc.oneof(
    fc.array(change, { minLength: 1, maxLength: 3 }),
    grow.map((g) => [g]),
  );
}
