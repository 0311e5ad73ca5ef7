/**
 * Reading untrusted JSON (an agent card, a JWKS) and caller options by hand: each reader checks one
 * value and returns it, or throws {@link Invalid} at the first problem, naming where it is and what is
 * wrong in words ("must be a string"). No schema library: zod would load some 90 modules (all its
 * locales among them, about 13 MB of a process's memory) for the handful of shapes read here.
 */

/** Where a value sits: the keys and indexes from the document's root. */
export type Path = readonly (string | number)[];

/** The first problem found in a value: where, and what is wrong (the words after "it"). */
export class Invalid extends Error {
  constructor(
    readonly path: Path,
    readonly says: string,
  ) {
    super(`${path.map(String).join('.') || '(value)'} ${says}`);
    this.name = 'Invalid';
  }

  /** The dotted path of the field, e.g. `supportedInterfaces.0.url`; `whole` for the value itself. */
  where(whole: string): string {
    return this.path.map(String).join('.') || whole;
  }
}

/** A reader of one value at `path`. */
export type Reader<T> = (value: unknown, path: Path) => T;

/** A string of `min` to `max` characters. */
export function text(min: number, max: number): Reader<string> {
  return (value, path) => {
    if (typeof value !== 'string') throw new Invalid(path, 'must be a string');
    if (value.length < min) throw new Invalid(path, min <= 1 ? 'must not be empty' : `must have at least ${min} characters`);
    if (value.length > max) throw new Invalid(path, `must have at most ${max} characters`);
    return value;
  };
}

/** A boolean. */
export const bool: Reader<boolean> = (value, path) => {
  if (typeof value !== 'boolean') throw new Invalid(path, 'must be a boolean');
  return value;
};

/** A finite number. */
export const finite: Reader<number> = (value, path) => {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new Invalid(path, 'must be a number');
  return value;
};

/** A whole number, in words where it is not: not a number, not whole, or past the integers a double holds exactly. */
export const whole: Reader<number> = (value, path) => {
  const n = finite(value, path);
  if (!Number.isInteger(n)) throw new Invalid(path, 'must be an integer');
  if (n > Number.MAX_SAFE_INTEGER) throw new Invalid(path, `must be at most ${Number.MAX_SAFE_INTEGER}`);
  if (n < Number.MIN_SAFE_INTEGER) throw new Invalid(path, `must be at least ${Number.MIN_SAFE_INTEGER}`);
  return n;
};

/**
 * A number in [min, max] (or (min, max] when `above`), each end checked in turn, read by `number`
 * ({@link finite} or {@link whole}), defaulting to `value`.
 */
export function bounded(number: Reader<number>, min: number, max: number, value: number, above = false): Reader<number> {
  return withDefault(
    (given, path) => {
      const n = number(given, path);
      if (above ? n <= min : n < min) throw new Invalid(path, above ? `must be more than ${min}` : `must be at least ${min}`);
      if (n > max) throw new Invalid(path, `must be at most ${max}`);
      return n;
    },
    () => value,
  );
}

/** One of `choices`, defaulting to the first. */
export function oneOf<T extends string>(...choices: [T, ...T[]]): Reader<T> {
  return withDefault(
    (given, path) => {
      if (!choices.includes(given as T)) throw new Invalid(path, 'is not valid');
      return given as T;
    },
    () => choices[0],
  );
}

/** Any value (kept as it is). */
export const anything: Reader<unknown> = (value) => value;

/** An array of `min` to `max` entries, each read by `item` (the length is checked first: a hostile array is not walked). */
export function list<T>(item: Reader<T>, max: number, min = 0): Reader<T[]> {
  return (value, path) => {
    if (!Array.isArray(value)) throw new Invalid(path, 'must be an array');
    if (value.length > max) throw new Invalid(path, `must have at most ${max} entries`);
    if (value.length < min) throw new Invalid(path, min <= 1 ? 'must not be empty' : `must have at least ${min} entries`);
    return value.map((entry, index) => item(entry, [...path, index]));
  };
}

/** A value that may be absent (`undefined`; `null` is not absent). */
export function optional<T>(read: Reader<T>): Reader<T | undefined> {
  return (value, path) => (value === undefined ? undefined : read(value, path));
}

/** A value that, absent, is `fallback` (made afresh each time). */
export function withDefault<T>(read: Reader<T>, fallback: () => NoInfer<T>): Reader<T> {
  return (value, path) => (value === undefined ? fallback() : read(value, path));
}

/** The readers of an object's known fields. */
export type Fields = Record<string, Reader<unknown>>;

/** What an object read by `fields` is: each field as its reader gives it, optional where it may give `undefined`. */
export type Read<F extends Fields> = {
  [K in keyof F as undefined extends ReturnType<F[K]> ? never : K]: ReturnType<F[K]>;
} & {
  [K in keyof F as undefined extends ReturnType<F[K]> ? K : never]?: Exclude<ReturnType<F[K]>, undefined>;
};

/** Whether a value is a plain JSON object (not an array, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * An object whose `fields` are read in their order (the first problem in that order is the one
 * named); a field whose reader gives `undefined` is left out. The object made has the fields first,
 * in that order, then (`loose`) the other members as they came (but `__proto__`), or none; no member
 * is ever deleted from it, so it keeps a fast shape.
 */
export function object<F extends Fields>(fields: F, loose: boolean): Reader<Read<F> & Record<string, unknown>> {
  const names = Object.keys(fields);
  const known = new Set(names);
  return (value, path) => {
    if (!isObject(value)) throw new Invalid(path, 'must be an object');
    const out: Record<string, unknown> = {};
    for (const name of names) {
      const read = fields[name]!(value[name], [...path, name]);
      if (read !== undefined) out[name] = read;
    }
    if (loose) {
      // A member named `__proto__` (JSON.parse makes it an own member) is not passed on.
      for (const name of Object.keys(value)) if (!known.has(name) && name !== '__proto__') out[name] = value[name];
    }
    return out as Read<F> & Record<string, unknown>;
  };
}
