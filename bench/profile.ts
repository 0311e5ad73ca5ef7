/**
 * Reads a V8 `.cpuprofile` (from `node --cpu-prof`) and sums self time over the measured window:
 * per function (with a4h-a2a's `dist/` positions mapped back to `src/` through the source maps)
 * and per category (a4h-a2a, the SDK, RxJS, undici, Node, GC, …).
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, relative, resolve } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  /** Milliseconds of samples in the window that were not idle. */
  busyMs: number;
  /** Events delivered in the window (to express costs per 1,000 events). */
  events: number;
  categories: { category: string; ms: number; percent: number; msPer1kEvents: number }[];
  top: ProfileLine[];
  /** The top functions of a4h-a2a and RxJS alone: what the library adds on top of the SDK. */
  library: ProfileLine[];
}

export interface ProfileLine {
  function: string;
  where: string;
  category: string;
  ms: number;
  percent: number;
  msPer1kEvents: number;
}

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Which part of the process a profile node's code belongs to. */
export function categoryOf(url: string, name: string): string {
  if (name === '(garbage collector)') return 'GC';
  if (name === '(program)') return 'V8 (program)';
  if (url.includes('/node_modules/@a2a-js/sdk/')) return '@a2a-js/sdk';
  if (url.includes('/node_modules/rxjs/')) return 'rxjs';
  if (url.includes('/node_modules/undici/')) return 'undici';
  if (url.includes('/node_modules/eventsource-parser/')) return 'eventsource-parser';
  if (url.includes('/node_modules/')) return 'other packages';
  if (url.includes('/dist/bench/')) return 'bench driver';
  if (url.includes('/dist/')) return 'a4h-a2a';
  if (url.startsWith('node:')) return 'node internals';
  return 'V8 builtins (microtasks, …)';
}

/** Self time by function and by category for the samples between `startMicros` and `endMicros`. */
export function summarizeProfile(
  file: string,
  window: { startMicros: number; endMicros: number },
  events: number,
  top = 15,
): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<ProfileNode, number>();
  let at = profile.startTime;
  const inWindow = window.startMicros >= profile.startTime && window.endMicros <= profile.endTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    if (inWindow && (at < window.startMicros || at > window.endMicros)) continue;
    const node = byId.get(profile.samples[i]!);
    if (node === undefined || node.callFrame.functionName === '(idle)') continue;
    const duration = profile.timeDeltas[i + 1] ?? 0;
    self.set(node, (self.get(node) ?? 0) + duration);
  }
  const sources = new SourceMaps();
  const byFunction = new Map<string, { function: string; where: string; category: string; us: number }>();
  const byCategory = new Map<string, number>();
  let busy = 0;
  for (const [node, us] of self) {
    const { functionName, url, lineNumber, columnNumber } = node.callFrame;
    const category = categoryOf(url, functionName);
    const where = url === '' ? '' : sources.position(url, lineNumber, columnNumber);
    const key = `${functionName}@${where}`;
    const entry = byFunction.get(key) ?? { function: functionName || '(anonymous)', where, category, us: 0 };
    entry.us += us;
    byFunction.set(key, entry);
    byCategory.set(category, (byCategory.get(category) ?? 0) + us);
    busy += us;
  }
  const pct = (us: number): number => Math.round((us / busy) * 1000) / 10;
  const ms = (us: number): number => Math.round(us / 100) / 10;
  const per1k = (us: number): number => Math.round((us / events) * 1000) / 1000;
  const sorted = [...byFunction.values()].sort((a, b) => b.us - a.us);
  const line = (e: { function: string; where: string; category: string; us: number }): ProfileLine => ({
    function: e.function,
    where: e.where,
    category: e.category,
    ms: ms(e.us),
    percent: pct(e.us),
    msPer1kEvents: per1k(e.us),
  });
  return {
    busyMs: ms(busy),
    events,
    categories: [...byCategory]
      .sort((a, b) => b[1] - a[1])
      .map(([category, us]) => ({ category, ms: ms(us), percent: pct(us), msPer1kEvents: per1k(us) })),
    top: sorted.slice(0, top).map(line),
    library: sorted
      .filter((e) => e.category === 'a4h-a2a' || e.category === 'rxjs')
      .slice(0, top)
      .map(line),
  };
}

/** `file:line` relative to the project; a4h-a2a's `dist/*.js` mapped to `src/*.ts` by its source map. */
class SourceMaps {
  private readonly maps = new Map<string, ((line: number, column: number) => string | undefined) | undefined>();

  position(url: string, line: number, column: number): string {
    const path = url.startsWith('file://') ? fileURLToPath(url) : url;
    const local = path.startsWith(ROOT) ? relative(ROOT, path) : path.replace(/^.*\/node_modules\//, '');
    if (!local.startsWith('dist/') || local.startsWith('dist/bench/')) return `${local}:${line + 1}`;
    if (!this.maps.has(path)) this.maps.set(path, loadMap(path));
    return this.maps.get(path)?.(line, column) ?? `${local}:${line + 1}`;
  }
}

/** A line lookup over a `.js.map` (version 3, one source): generated line/column → `src/…:line`. */
function loadMap(jsPath: string): ((line: number, column: number) => string | undefined) | undefined {
  const mapPath = `${jsPath}.map`;
  if (!existsSync(mapPath)) return undefined;
  const map = JSON.parse(readFileSync(mapPath, 'utf8')) as { sources: string[]; mappings: string };
  const lines: [number, number, number][][] = []; // per generated line: [column, source, source line]
  let source = 0;
  let sourceLine = 0;
  let sourceColumn = 0;
  for (const text of map.mappings.split(';')) {
    const segments: [number, number, number][] = [];
    let column = 0;
    for (const segment of text.split(',')) {
      if (segment === '') continue;
      const v = decodeVlq(segment);
      column += v[0] ?? 0;
      if (v.length >= 4) {
        source += v[1]!;
        sourceLine += v[2]!;
        sourceColumn += v[3]!;
        segments.push([column, source, sourceLine]);
      }
    }
    lines.push(segments);
  }
  return (line, column) => {
    const segments = lines[line];
    if (!segments || segments.length === 0) return undefined;
    let best = segments[0]!;
    for (const s of segments) if (s[0] <= column) best = s;
    const file = map.sources[best[1]];
    return file === undefined ? undefined : `${relative(ROOT, resolve(dirname(jsPath), file))}:${best[2] + 1}`;
  };
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function decodeVlq(segment: string): number[] {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = BASE64.indexOf(char);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
    } else {
      values.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return values;
}

/**
 * Several profiles of one contender as one: each category at its median over the profiles, and the
 * function lists of the profile whose busy time is the median one.
 */
export function mergeProfiles(profiles: readonly ProfileSummary[]): ProfileSummary & { rounds: number } {
  const sorted = [...profiles].sort((a, b) => a.busyMs - b.busyMs);
  const middle = sorted[(sorted.length - 1) >> 1]!;
  const names = new Set(profiles.flatMap((p) => p.categories.map((c) => c.category)));
  const mid = (values: number[]): number => [...values].sort((a, b) => a - b)[(values.length - 1) >> 1]!;
  const categories = [...names]
    .map((category) => {
      const of = (p: ProfileSummary) => p.categories.find((c) => c.category === category);
      return {
        category,
        ms: mid(profiles.map((p) => of(p)?.ms ?? 0)),
        percent: mid(profiles.map((p) => of(p)?.percent ?? 0)),
        msPer1kEvents: mid(profiles.map((p) => of(p)?.msPer1kEvents ?? 0)),
      };
    })
    .sort((a, b) => b.msPer1kEvents - a.msPer1kEvents);
  return { ...middle, busyMs: mid(profiles.map((p) => p.busyMs)), categories, rounds: profiles.length };
}
