/**
 * Tiny signals, just enough for this page: `signal()` holds a value, `computed()` derives one
 * (lazily, cached until a source changes), `effect()` re-runs when what it read changes.
 *
 * Effects run once at once, then in a microtask after changes, so several `set()`s in a row cause
 * one re-run (and the DOM is written once). Dependencies are tracked anew on every run, like in
 * Angular, Solid or Preact signals; this is a teaching-sized version of the same idea.
 */

/** Something a signal notifies when its value changes. */
interface Observer {
  /** A source read by this observer changed. */
  notify(): void;
  /** The sources read during the last run, so they can be unlinked before the next one. */
  sources: Set<Source>;
}

/** Something an observer can depend on. */
interface Source {
  observers: Set<Observer>;
}

/** A readable value: call it to read (and, inside a computed or an effect, to depend on it). */
export interface ReadonlySignal<T> {
  (): T;
  /** Reads without depending on the value. */
  peek(): T;
}

/** A writable value. */
export interface Signal<T> extends ReadonlySignal<T> {
  set(value: T): void;
  update(fn: (value: T) => T): void;
}

/** The computed or effect that is running now; reads register with it. */
let running: Observer | undefined;

function track(source: Source): void {
  if (running === undefined) return;
  source.observers.add(running);
  running.sources.add(source);
}

/** Unlinks `observer` from its sources, runs `fn` while tracking what it reads, and returns the result. */
function runTracked<T>(observer: Observer, fn: () => T): T {
  for (const source of observer.sources) source.observers.delete(observer);
  observer.sources.clear();
  const outer = running;
  running = observer;
  try {
    return fn();
  } finally {
    running = outer;
  }
}

function notifyAll(source: Source): void {
  for (const observer of [...source.observers]) observer.notify();
}

/** A writable signal. `set` with an equal value (`Object.is`) notifies nobody. */
export function signal<T>(initial: T): Signal<T> {
  let value = initial;
  const source: Source = { observers: new Set() };
  const read = (() => {
    track(source);
    return value;
  }) as Signal<T>;
  read.peek = () => value;
  read.set = (next) => {
    if (Object.is(next, value)) return;
    value = next;
    notifyAll(source);
  };
  read.update = (fn) => read.set(fn(value));
  return read;
}

/** A derived signal: `fn` runs on the first read after one of its sources changed, never sooner. */
export function computed<T>(fn: () => T): ReadonlySignal<T> {
  let value!: T;
  let dirty = true;
  const self: Source & Observer = {
    observers: new Set(),
    sources: new Set(),
    notify() {
      if (dirty) return;
      dirty = true;
      notifyAll(self);
    },
  };
  const fresh = (): T => {
    if (dirty) {
      value = runTracked(self, fn);
      dirty = false;
    }
    return value;
  };
  const read = (() => {
    track(self);
    return fresh();
  }) as ReadonlySignal<T>;
  read.peek = fresh;
  return read;
}

const pending = new Set<() => void>();
let flushQueued = false;

function flush(): void {
  flushQueued = false;
  const runs = [...pending];
  pending.clear();
  for (const run of runs) run();
}

/** Runs `fn` now and again (batched, in a microtask) whenever a signal it read changes; returns a stop function. */
export function effect(fn: () => void): () => void {
  let stopped = false;
  const run = (): void => {
    if (!stopped) runTracked(self, fn);
  };
  const self: Observer = {
    sources: new Set(),
    notify() {
      pending.add(run);
      if (!flushQueued) {
        flushQueued = true;
        queueMicrotask(flush);
      }
    },
  };
  run();
  return () => {
    stopped = true;
    pending.delete(run);
    for (const source of self.sources) source.observers.delete(self);
    self.sources.clear();
  };
}
