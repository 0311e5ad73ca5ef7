/**
 * The README is the door and docs/ the rest: the README stays short with a table of contents, every
 * relative link of the README and of docs/ reaches a file of the repository (and a heading, for a
 * `#fragment`), and no page points at what is not in the repository.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DOCS = join(ROOT, 'docs');
const pages = [
  join(ROOT, 'README.md'),
  ...readdirSync(DOCS)
    .filter((f) => f.endsWith('.md'))
    .map((f) => join(DOCS, f)),
];
const read = (path: string) => readFileSync(path, 'utf8');
/** Markdown outside code blocks and code spans: links written in code are examples, not links. */
const prose = (text: string) => text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchor = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
const anchorsOf = (text: string) => new Set([...prose(text).matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchor(m[1]!)));

describe('the README and docs/', () => {
  it('the README is at most 250 lines, with a table of contents', () => {
    const readme = read(join(ROOT, 'README.md'));
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
    expect(readme).toMatch(/^## Contents$/m);
  });

  it('every docs/ page is linked from the README and says who needs it', () => {
    const readme = read(join(ROOT, 'README.md'));
    for (const page of pages.slice(1)) {
      expect(readme, relative(ROOT, page)).toContain(`](docs/${relative(DOCS, page)})`);
      expect(read(page).split('\n')[2], relative(ROOT, page)).toMatch(/^\*For .+\*$/);
    }
  });

  it('every relative link reaches a file of the repository, and its #fragment a heading', () => {
    const broken: string[] = [];
    for (const page of pages) {
      const text = read(page);
      for (const [, target] of prose(text).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue; // https:, mailto:
        const [path, fragment] = target!.split('#') as [string, string | undefined];
        const file = path === '' ? page : join(dirname(page), path);
        if (!existsSync(file)) broken.push(`${relative(ROOT, page)}: ${target} (no such file)`);
        else if (fragment !== undefined && file.endsWith('.md') && !anchorsOf(read(file)).has(fragment))
          broken.push(`${relative(ROOT, page)}: ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('no page points at what is not in the repository, or tells history', () => {
    for (const page of pages) {
      const text = read(page);
      expect(text, relative(ROOT, page)).not.toMatch(/shared\/research|SPEC §|\bas before\b|\(S\d{1,2}\)|previous release/);
    }
  });
});

describe("the README's first program", () => {
  it('is examples/node/turn.mjs verbatim (which a test runs against the demo agent)', () => {
    const readme = read(join(ROOT, 'README.md'));
    const block = /## A first program[\s\S]*?```js\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block).toBe(read(join(ROOT, 'examples', 'node', 'turn.mjs')));
  });
});

describe("docs/ui.md's History snippet", () => {
  it('is examples/node/history.mjs verbatim (which a test runs against the demo agent)', () => {
    const ui = read(join(DOCS, 'ui.md'));
    const block = /## History[\s\S]*?```js\n([\s\S]*?)```/.exec(ui)?.[1];
    expect(block).toBe(read(join(ROOT, 'examples', 'node', 'history.mjs')));
  });
});

describe('how long things take', () => {
  const TIMING = /How long it takes/;
  const DURATION = /\d\s*(s|seconds?|min|minutes?)\b|½/;
  /** The paragraphs, list items and table rows of `text` that name `npm test`, `npm run docs` or an install. */
  const aboutCommands = (text: string) =>
    prose(text.replace(/`(npm test|npm run docs)`/g, '$1'))
      .split(/\n\s*\n|\n(?=\s*(?:[-*] |\|))/)
      .filter((paragraph) => /npm test|npm run docs|first install/.test(paragraph));

  it('is written once, in docs/development.md, with the machine it was measured on; the README links there', () => {
    const development = read(join(DOCS, 'development.md'));
    const [before, section = ''] = development.split(/^## How long it takes$/m);
    expect(section, 'docs/development.md: ## How long it takes').toMatch(/2 cores/);
    expect(section).toMatch(/Node 20/);
    expect(section).toMatch(/npm test[^\n]*\|[^\n]*\d+ minutes/);
    expect(section).toMatch(/npm run docs[^\n]*\|[^\n]*\d+ s/);
    const elsewhere = pages.filter((page) => !page.endsWith('development.md')).map((page) => [relative(ROOT, page), read(page)] as const);
    for (const [name, text] of [['docs/development.md (above its section)', before!] as const, ...elsewhere]) {
      for (const paragraph of aboutCommands(text)) expect(paragraph, name).not.toMatch(DURATION);
    }
    expect(read(join(ROOT, 'README.md'))).toContain('](docs/development.md#how-long-it-takes)');
    expect(development.match(TIMING)).toHaveLength(1);
  });
});

describe('docs/commonjs.md', () => {
  const page = () => prose(read(join(DOCS, 'commonjs.md')).replace(/`(a4h-a2a[^`]*)`/g, '$1'));
  const pkg = JSON.parse(read(join(ROOT, 'package.json'))) as { exports: Record<string, unknown> };
  /** The entries `require()` reaches: those of the exports map with a `require` condition. */
  const required = Object.entries(pkg.exports)
    .filter(([, conditions]) => typeof conditions === 'object' && conditions !== null && 'require' in conditions)
    .map(([path]) => (path === '.' ? 'a4h-a2a' : `a4h-a2a/${path.slice(2)}`));
  const WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six'];

  it('counts the entries require() works on, and names each', () => {
    expect(required).toContain('a4h-a2a/telemetry');
    const said = /on the (\w+) entries other than a4h-a2a\/angular/.exec(page())?.[1];
    expect(said).toBe(WORDS[required.length]);
    for (const entry of required) expect(page()).toContain(entry);
  });

  it('names the optional peer a4h-a2a/telemetry needs, and what require() says without it', () => {
    expect(read(join(DOCS, 'commonjs.md'))).toMatch(
      /`a4h-a2a\/telemetry` needs its optional peer dependency `@opentelemetry\/api`[^.]*`require\('a4h-a2a\/telemetry'\)`[^.]*Cannot find module/,
    );
  });
});

describe('docs/ui.md', () => {
  it("its first snippet is the README's UI-store line, with where `a2a` comes from (not a port from nowhere)", () => {
    const readme = read(join(ROOT, 'README.md'));
    const line = /## UI stores\n+```ts\n(.*)\n```/.exec(readme)![1]!;
    const first = /```ts\n([\s\S]*?)```/.exec(read(join(DOCS, 'ui.md')))![1]!;
    expect(first).toContain(line);
    expect(first).toMatch(/^const a2a = createA2A\(/m);
    expect(first).toMatch(/^import \{[^}]*\bcreateA2A\b[^}]*\} from 'a4h-a2a\/node';/m);
    expect(first).not.toMatch(/\bport\b/);
  });
});

describe('docs/design.md counts what the code has', () => {
  const WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
  const code = (path: string) => read(join(ROOT, path));
  /** The methods an interface or class body of `source` declares, from `opening` to its closing brace. */
  const methodsOf = (source: string, opening: string) => {
    const body = source.slice(source.indexOf(opening), source.indexOf('\n}', source.indexOf(opening)));
    return [...body.matchAll(/^ {2}(\w+)\??\(/gm)].map((m) => m[1]!).filter((name) => name !== 'constructor');
  };
  const portMethods = methodsOf(code('src/port/port.ts'), 'export interface A2APort {');

  it("says how many calls the port has, where it counts them: A2APort's methods", () => {
    expect(portMethods).toContain('listTasks');
    const said = WORDS[portMethods.length]!;
    const design = read(join(DOCS, 'design.md'));
    expect(/`A2APort`, whose (\w+)\s+methods/.exec(design)?.[1]).toBe(said);
    expect(/`SdkPort` maps the (\w+) port calls/.exec(design)?.[1]).toBe(said);
    expect(/a port \(`A2APort`\): (\w+) calls/.exec(read(join(DOCS, 'client.md')))?.[1]).toBe(said);
    expect(/The ladder's only view of an agent: (\w+) calls/.exec(code('src/port/port.ts'))?.[1]).toBe(said);
  });

  it("ForwardingPort forwards each of the port's methods and the push-config calls (so a decorator forwards a method added)", () => {
    const pushConfigMethods = methodsOf(code('src/port/push-configs.ts'), 'export interface PushConfigPort {');
    expect(pushConfigMethods).toContain('createPushConfig');
    expect(methodsOf(code('src/port/forwarding.ts'), 'export class ForwardingPort').sort()).toEqual(
      [...portMethods, ...pushConfigMethods].sort(),
    );
  });

  it('names in code only files that are there (under the checkout, src/, src/sdk/ or its wire/bindings/)', () => {
    const named = [...read(join(DOCS, 'design.md')).matchAll(/`([\w./-]+\.(?:ts|json|mjs))`/g)].map((m) => m[1]!);
    expect(named.length).toBeGreaterThan(5);
    const gone = named.filter(
      (name) => !['', 'src', 'src/sdk', 'src/sdk/wire/bindings'].some((base) => existsSync(join(ROOT, base, name))),
    );
    expect(gone).toEqual([]);
  });

  it("names each tier of src/sdk/ in sdk/'s tiers, and no folder that is not there", () => {
    const design = read(join(DOCS, 'design.md'));
    const tiers = /\*\*sdk\/ is three tiers under its root, named in the order they stand\.\*\*([\s\S]*?)\n- \*\*/.exec(design)?.[1] ?? '';
    const named = [...tiers.matchAll(/`(\w+)\/`/g)].map((m) => m[1]!);
    const under = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .flatMap((entry) => [entry.name, ...under(join(dir, entry.name))]);
    const top = readdirSync(join(ROOT, 'src', 'sdk'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(top.filter((tier) => !named.includes(tier))).toEqual([]);
    expect(named.filter((folder) => !under(join(ROOT, 'src', 'sdk')).includes(folder))).toEqual([]);
  });
});
