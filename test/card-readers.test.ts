/**
 * The card and JWKS readers (`validation.ts`'s, in `sdk/agent/card/schema.ts` and `sdk/agent/trust/jwks.ts`)
 * against the zod schemas they replaced, kept below as the reference: over generated cards (v1.0 and
 * v0.3) and JWKS, valid and with fields changed, both accept or both refuse; accepting, they give the
 * same card and keys (defaults filled, unknown members kept alike); refusing, the same message.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { describeIssue } from '../src/cli/output/zod-issue.js';
import { bindingNamed } from '../src/sdk/wire/bindings/registry.js';
import { redactQuery } from '../src/port/card-url.js';
import { cardError, checkCard } from '../src/sdk/agent/card/schema.js';
import { readJwks } from '../src/sdk/agent/trust/jwks.js';
import { agree, changed, changes, outcome } from './readers-changes.js';

// The reference: the zod schemas before the readers (the card's and the JWKS's), trimmed to what is compared.
const issuePath = (issue: z.core.$ZodIssue | undefined, whole: string) => issue?.path.map(String).join('.') || whole;
const url = z
  .url({ protocol: /^https?$/ })
  .check(z.refine((value: string) => !/^[a-z+.-]+:\/\/[^/?#]*@/i.test(value), { error: 'must not carry credentials' }));
const opt = z.optional;
const upTo = (max: number) => z.string().check(z.maxLength(max));
const between = (min: number, max: number) => z.string().check(z.minLength(min), z.maxLength(max));
const zList = <T extends z.ZodMiniType>(item: T, max: number) => z.array(item).check(z.maxLength(max));
const zText = upTo(10_000);
const zModes = zList(upTo(200), 100);
const zExtension = z.looseObject({ uri: between(1, 2_048), description: opt(zText), required: opt(z.boolean()), params: opt(z.unknown()) });
const zCapabilities = z.looseObject({ streaming: opt(z.boolean()), extensions: opt(zList(zExtension, 100)) });
const zSkill = z.looseObject({ id: zText, name: zText, description: opt(zText), inputModes: opt(zModes) });
const zCommon = {
  name: between(1, 1_000),
  description: opt(zText),
  capabilities: opt(zCapabilities),
  defaultInputModes: opt(zModes),
  defaultOutputModes: opt(zModes),
  skills: opt(zList(zSkill, 1_000)),
};
const zV03Skill = z.looseObject({ id: zText, name: zText, description: opt(zText), tags: z._default(zList(zText, 100), []) });
const zV1Iface = z.looseObject({
  url: upTo(2_000),
  protocolBinding: between(1, 100),
  protocolVersion: opt(upTo(20)),
  tenant: opt(upTo(1_000)),
});
const zV1Card = z.looseObject({ ...zCommon, supportedInterfaces: zList(zV1Iface, 100).check(z.minLength(1)) });
const zV03Card = z.looseObject({
  ...zCommon,
  capabilities: z._default(zCapabilities, {}),
  defaultInputModes: z._default(zModes, []),
  defaultOutputModes: z._default(zModes, []),
  skills: z._default(zList(zV03Skill, 1_000), []),
  url: upTo(2_000),
  protocolVersion: opt(upTo(20)),
  preferredTransport: opt(upTo(100)),
  additionalInterfaces: opt(zList(z.looseObject({ url: upTo(2_000), transport: between(1, 100) }), 100)),
});
const overHttp = (binding: unknown): boolean => binding === undefined || bindingNamed(binding as string)?.http !== undefined;

type Iface = { url: string; protocolBinding?: string; transport?: string };
type OldCard = { url: string; preferredTransport?: string; supportedInterfaces: Iface[]; additionalInterfaces?: Iface[] };
const CARD_URL = 'https://agent.example/.well-known/agent-card.json';

function oldCheckCard(json: unknown): unknown {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw cardError(CARD_URL, 'the agent card is not a JSON object');
  const isV1 = 'supportedInterfaces' in json;
  const result = isV1 ? zV1Card.safeParse(json) : zV03Card.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw cardError(CARD_URL, `the agent card's field ${issuePath(issue, '(card)')} is not usable: it ${describeIssue(issue)}`);
  }
  const card = result.data as unknown as OldCard;
  type Address = readonly [string, string, string | undefined, (url: string) => void];
  const each = (list: Iface[], name: string, key: keyof Iface) =>
    list.map((i, n): Address => [`${name}.${n}.url`, i.url, i[key], (url) => (i.url = url)]);
  const addresses: Address[] = isV1
    ? each(card.supportedInterfaces, 'supportedInterfaces', 'protocolBinding')
    : [
        ['url', card.url, card.preferredTransport, (u) => (card.url = u)],
        ...each(card.additionalInterfaces ?? [], 'additionalInterfaces', 'transport'),
      ];
  for (const [field, value, binding, set] of addresses) {
    // Since issue 48: a relative address is resolved against the card's URL, and a bad one is named.
    const written = value.trim();
    const resolved = /^(\/|\.\.?\/)\S*$/.test(written) && URL.canParse(written, CARD_URL) ? new URL(written, CARD_URL).href : value;
    const parsed = overHttp(binding) ? url.safeParse(resolved.trim()) : undefined;
    const issue = parsed?.error?.issues[0];
    if (parsed?.success === false) {
      const said = describeIssue(issue);
      const shown = resolved.trim().length > 200 ? `${resolved.trim().slice(0, 200)}…` : resolved.trim();
      const named = said === 'must be an http(s) URL' ? `${said}, not ${JSON.stringify(redactQuery(shown))}` : said;
      throw cardError(CARD_URL, `the agent card's field ${field} is not usable: it ${named}`);
    }
    if (overHttp(binding) && resolved !== value) set(resolved);
  }
  return { shape: isV1 ? '1.0' : '0.3', card };
}

const PUBLIC_MEMBERS: Readonly<Record<string, readonly string[]>> = { EC: ['crv', 'x', 'y'], RSA: ['n', 'e'], OKP: ['crv', 'x'] };
const short = upTo(2_000);
const zJwk = z.looseObject({
  kty: between(1, 20),
  kid: opt(short),
  alg: opt(short),
  use: opt(short),
  key_ops: opt(zList(short, 20)),
  exp: opt(z.number()),
});
const zJwks = z.looseObject({ keys: zList(zJwk, 100) });

function oldReadJwks(json: unknown): unknown {
  const result = zJwks.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new Error(`not a JWKS: its field ${issuePath(issue, '(the document)')} ${describeIssue(issue)}`);
  }
  return result.data.keys.flatMap((raw) => {
    // The one change from the code it was: own members only (`kty: "constructor"` threw a TypeError in both).
    const members = Object.hasOwn(PUBLIC_MEMBERS, raw.kty) ? PUBLIC_MEMBERS[raw.kty] : undefined;
    if (members === undefined) return [];
    const jwk: Record<string, unknown> = {};
    for (const name of ['kty', 'kid', 'alg', 'use', 'key_ops', ...members]) if (raw[name] !== undefined) jwk[name] = raw[name];
    return [{ kid: raw.kid, jwk, expiresAt: raw.exp === undefined ? undefined : raw.exp * 1000, jwksUrl: undefined }];
  });
}

/** Strings at and past each bound: 1, 20, 100, 200, 1,000, 2,000, 2,048 and 10,000 characters. */
const bounds = fc
  .constantFrom(0, 1, 20, 21, 100, 101, 200, 201, 1_000, 1_001, 2_000, 2_001, 2_048, 2_049, 10_000, 10_001)
  .map((n) => 'x'.repeat(n));
const notHttp = ['ftp://agent.example/', 'file:///etc/passwd', 'ws://agent.example/', 'mailto:a@agent.example', 'not a url', 'http://'];
const credentials = ['http://user:secret@agent.example/', 'https://user@agent.example/a2a', 'HTTPS://U:P@AGENT.EXAMPLE'];
const notCredentials = ['http://agent.example/a@b', 'http://agent.example?x=@', 'http://agent.example#@', ' http://agent.example/ '];
const grpc = ['agent.example:443', 'localhost:50051', '127.0.0.1:8080', '[::1]:50051', 'http://[::1]:9/'];
/** Addresses the reader once read otherwise than zod (it wants `//`, trims, and finds credentials wherever URL does). */
const oddlyWritten = ['http:agent.example', ' http://u:p@agent.example', '\thttp://u:p@agent.example', 'http:/u:p@agent.example'];
const oddlyWritten2 = ['http:\\\\u:p@agent.example', 'ht\ttp://u:p@agent.example'];
const addresses = fc.constantFrom(...notHttp, ...credentials, ...notCredentials, ...grpc, ...oddlyWritten, ...oddlyWritten2);
const bindings = fc.constantFrom('JSONRPC', 'HTTP+JSON', 'GRPC', 'grpc', 'JsonRpc', 'http+json', 'custom');
const simple = fc.constantFrom<unknown>(null, true, false, 0, -1, 1.5, NaN, Infinity, 1e300, 'x', '', [], {}, [1], [{}], { a: 1 }, ['x']);
const wrong = fc.oneof(simple, bounds, addresses, bindings, fc.jsonValue({ maxDepth: 2 }));
const names = fc.constantFrom('extra', '__proto__', 'constructor', 'toString', 'supportedInterfaces', 'url', 'tags', 'keys', 'kty');

const word = fc.string({ maxLength: 6 });
const modes = fc.array(fc.constantFrom('text/plain', 'application/json', ''), { maxLength: 3 });
const some = { requiredKeys: [] as [] };
const json = fc.jsonValue({ maxDepth: 1 });
const extension = fc.record({ uri: fc.webUrl(), description: word, required: fc.boolean(), params: json }, { requiredKeys: ['uri'] });
const capabilities = fc.record({ streaming: fc.boolean(), extensions: fc.array(extension, { maxLength: 2 }), push: fc.boolean() }, some);
const skill = fc.record(
  { id: word, name: word, description: word, inputModes: modes, tags: fc.array(word, { maxLength: 2 }) },
  { requiredKeys: ['id', 'name'] },
);
const common = {
  name: fc.string({ minLength: 1, maxLength: 10 }),
  description: word,
  capabilities,
  defaultInputModes: modes,
  defaultOutputModes: modes,
  skills: fc.array(skill, { maxLength: 3 }),
  version: fc.string(),
};
const httpUrl = fc.webUrl({ validSchemes: ['http', 'https'], withQueryParameters: true, withFragments: true });
/** An interface: a binding and an address its binding reads (a URL over HTTP, `host:port` for gRPC). */
const iface = fc.oneof(
  fc.tuple(fc.constantFrom('JSONRPC', 'HTTP+JSON', 'jsonrpc'), httpUrl),
  fc.tuple(fc.constantFrom('GRPC', 'grpc', 'custom'), fc.oneof(fc.constantFrom('agent.example:443', 'localhost:50051'), httpUrl)),
);
const v1Card = fc.record(
  {
    ...common,
    supportedInterfaces: fc.array(
      fc
        .tuple(iface, fc.record({ protocolVersion: fc.constantFrom('1.0', '0.3'), tenant: word }, some))
        .map(([[protocolBinding, url], more]) => ({ url, protocolBinding, ...more })),
      { minLength: 1, maxLength: 3 },
    ),
  },
  { requiredKeys: ['name', 'supportedInterfaces'] },
);
const v03Main = fc.oneof(
  iface.map(([preferredTransport, url]) => ({ url, preferredTransport })),
  httpUrl.map((url) => ({ url })),
);
const v03Card = fc
  .tuple(
    fc.record({ ...common, protocolVersion: fc.constant('0.3.0') }, { requiredKeys: ['name'] }),
    v03Main,
    fc.record(
      {
        additionalInterfaces: fc.array(
          iface.map(([transport, url]) => ({ url, transport })),
          { maxLength: 3 },
        ),
      },
      some,
    ),
  )
  .map(([card, main, more]) => ({ ...card, ...main, ...more }));
const card = fc.oneof(v1Card, v03Card);

const newCheckCard = (doc: unknown) => checkCard(doc, CARD_URL);
/** A card whose first address (its first interface's, v0.3's `url`) is `address`. */
function readdressed(json: Record<string, unknown>, address: string | undefined): Record<string, unknown> {
  const ifaces = json['supportedInterfaces'] as object[] | undefined;
  if (address === undefined) return json;
  return ifaces ? { ...json, supportedInterfaces: [{ ...ifaces[0], url: address }, ...ifaces.slice(1)] } : { ...json, url: address };
}

describe('the card reader, against the zod schema it replaced', () => {
  it('accepts the valid cards zod accepted and reads them alike', () => {
    fc.assert(
      fc.property(card, (json) => {
        expect(outcome(() => oldCheckCard(json))).toHaveProperty('gives');
        agree(newCheckCard, oldCheckCard, json);
      }),
      { numRuns: 500 },
    );
  });

  it('accepts or refuses a changed card as zod did, with the same card or the same first problem', () => {
    fc.assert(
      fc.property(card, fc.option(addresses, { nil: undefined }), changes(wrong, names, [21, 101, 1_001]), (json, address, edits) => {
        agree(newCheckCard, oldCheckCard, changed(readdressed(json, address), edits));
      }),
      { numRuns: 3_000 },
    );
  });
});

const b64 = fc.base64String();
const members = fc.record({ crv: fc.constantFrom('P-256', 'Ed25519'), x: b64, y: b64, n: b64, e: fc.constant('AQAB'), d: b64 }, some);
const jwk = fc
  .tuple(
    fc.record(
      {
        kty: fc.oneof(fc.constantFrom('EC', 'RSA', 'OKP', 'oct'), fc.string({ minLength: 1, maxLength: 20 })),
        kid: word,
        alg: fc.constantFrom('ES256', 'RS256', 'EdDSA'),
        use: fc.constantFrom('sig', 'enc'),
        key_ops: fc.array(fc.constantFrom('verify', 'sign'), { maxLength: 3 }),
        exp: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })),
      },
      { requiredKeys: ['kty'] },
    ),
    members,
  )
  .map(([key, more]) => ({ ...key, ...more }));
const jwks = fc.record({ keys: fc.array(jwk, { maxLength: 4 }), extra: json }, { requiredKeys: ['keys'] });

describe('the JWKS reader, against the zod schema it replaced', () => {
  it('reads valid and changed JWKS as zod did: the same keys, or the same first problem', () => {
    fc.assert(
      fc.property(jwks, fc.option(changes(wrong, names, [21, 101]), { nil: [] }), (json, edits) => {
        agree(readJwks, oldReadJwks, changed(json, edits));
      }),
      { numRuns: 3_000 },
    );
  });
});
