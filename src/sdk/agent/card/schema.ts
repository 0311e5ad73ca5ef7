import { A2AError } from '../../../errors.js';
import { redactQuery } from '../../../port/card-url.js';
import { anything, bool, Invalid, list, object, optional, text, withDefault, type Path, type Reader } from '../../../validation.js';
import { bindingNamed } from '../../wire/bindings/registry.js';

/**
 * An http(s) URL without a user or password in it (credentials go in headers, never in a card): read
 * as the URL parser reads it, after the blanks around it, and written with `//` after its scheme.
 */
const httpUrl: Reader<string> = (value, path) => {
  if (typeof value !== 'string') throw new Invalid(path, 'must be a string');
  const written = value.trim();
  let url: URL;
  try {
    url = new URL(written);
  } catch {
    throw notHttp(path, written);
  }
  if (!/^https?:\/\//i.test(written) || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
    throw notHttp(path, written);
  }
  if (url.username !== '' || url.password !== '' || /^[a-z+.-]+:\/\/[^/?#]*@/i.test(written))
    throw new Invalid(path, 'must not carry credentials');
  return value;
};
/** The most characters of a bad address an error shows. */
const SHOWN_MAX = 200;

/**
 * What an address that is no http(s) URL is refused with: the value itself, shortened, its query's
 * values hidden (it may carry a key). Never for an address with credentials in it.
 */
function notHttp(path: Path, written: string): Invalid {
  const shown = redactQuery(written.length > SHOWN_MAX ? `${written.slice(0, SHOWN_MAX)}…` : written);
  return new Invalid(path, `must be an http(s) URL, not ${JSON.stringify(shown)}`);
}

/**
 * A reference relative to the card's URL, as cards in the wild write one: a path from the root
 * (`/a2a/agent`), from another host (`//host/path`), or from the card's folder (`./a2a`, `../a2a`),
 * without blanks. A bare word (`nowhere`) is refused as no URL, as before: no card means that.
 */
const RELATIVE = /^(\/|\.\.?\/)[^\s]*$/;

/**
 * An HTTP interface's address as the client calls it: an absolute one as it is; a relative one
 * (`/a2a/agent`, as @mastra/server publishes it) resolved against the URL the card came from, as a
 * browser resolves a link against its page.
 */
function againstCard(value: string, cardUrl: string): string {
  const written = value.trim();
  if (!RELATIVE.test(written)) return value;
  try {
    return new URL(written, cardUrl).href;
  } catch {
    return value;
  }
}
const upTo = (max: number) => text(0, max);
/** An interface's address before its binding is known: gRPC interfaces give `host:port`, not a URL. */
const address = upTo(2_000);

/**
 * Whether an interface's addresses are checked as http(s) URLs: its binding's are (a binding over
 * HTTP), or it names none (v0.3's `url` without `preferredTransport`). Others (gRPC's `host:port`)
 * are read when an interface is chosen, by their binding (`agent/choose-interface.ts`).
 */
const overHttp = (binding: string | undefined): boolean => binding === undefined || bindingNamed(binding)?.http !== undefined;
const textField = upTo(10_000);

const modes = list(upTo(200), 100);
const skill = object({ id: textField, name: textField, description: optional(textField), inputModes: optional(modes) }, true);
/** The extensions a card declares: what the client reads of each (whether it is required above all). */
const extension = object(
  { uri: text(1, 2_048), description: optional(textField), required: optional(bool), params: optional(anything) },
  true,
);
const capabilities = object({ streaming: optional(bool), extensions: optional(list(extension, 100)) }, true);

const common = {
  name: text(1, 1_000),
  description: optional(textField),
  capabilities: optional(capabilities),
  defaultInputModes: optional(modes),
  defaultOutputModes: optional(modes),
  skills: optional(list(skill, 1_000)),
};

/**
 * The SDK's v0.3 translation requires `capabilities`, `defaultInputModes`, `defaultOutputModes`,
 * `skills` and each skill's `tags`; cards in the field often leave them out, so absent ones are
 * filled with empty values instead of failing later with an SDK error.
 */
const v03Lenient = {
  capabilities: withDefault(capabilities, () => ({})),
  defaultInputModes: withDefault(modes, () => []),
  defaultOutputModes: withDefault(modes, () => []),
  skills: withDefault(
    list(
      object({ id: textField, name: textField, description: optional(textField), tags: withDefault(list(textField, 100), () => []) }, true),
      1_000,
    ),
    () => [],
  ),
};

/**
 * The fields of an agent card the client relies on, validated before anything else reads the card.
 * Both shapes are accepted: v1.0 (`supportedInterfaces`) and v0.3 (a top-level `url`, with
 * `preferredTransport` and `additionalInterfaces`). Anything else on the card is passed through.
 */
const v1Card = object(
  {
    ...common,
    supportedInterfaces: list(
      object({ url: address, protocolBinding: text(1, 100), protocolVersion: optional(upTo(20)), tenant: optional(upTo(1_000)) }, true),
      100,
      1,
    ),
  },
  true,
);

const v03Card = object(
  {
    ...common,
    ...v03Lenient,
    url: address,
    protocolVersion: optional(upTo(20)),
    preferredTransport: optional(upTo(100)),
    additionalInterfaces: optional(list(object({ url: address, transport: text(1, 100) }, true), 100)),
  },
  true,
);

export type V1CardJson = ReturnType<typeof v1Card>;
export type V03CardJson = ReturnType<typeof v03Card>;

/** A card that passed validation, with the shape it came in. */
export type CheckedCard = { shape: '1.0'; card: V1CardJson } | { shape: '0.3'; card: V03CardJson };

/**
 * Validates a fetched card; the error names the first bad field (and, for an address, its value). The
 * HTTP interfaces' relative addresses are resolved against `cardUrl` in the card returned (`json`
 * itself is left as it was: its signatures are checked on it).
 */
export function checkCard(json: unknown, cardUrl: string): CheckedCard {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw cardError(cardUrl, 'the agent card is not a JSON object');
  }
  try {
    const checked: CheckedCard =
      'supportedInterfaces' in json ? { shape: '1.0', card: v1Card(json, []) } : { shape: '0.3', card: v03Card(json, []) };
    for (const [path, value, set] of spokenAddresses(checked)) {
      const resolved = againstCard(value, cardUrl);
      httpUrl(resolved, path);
      if (resolved !== value) set(resolved);
    }
    return checked;
  } catch (error) {
    if (!(error instanceof Invalid)) throw error;
    throw cardError(cardUrl, `the agent card's field ${error.where('(card)')} is not usable: it ${error.says}`, error);
  }
}

/** An HTTP interface's address: its field, its value, and how the checked card's copy of it is replaced. */
type Spoken = [Path, string, (resolved: string) => void];

/**
 * The addresses of the HTTP interfaces, by field: each must be an http(s) URL (once resolved against
 * the card's URL). Others (gRPC's `host:port`) are read when an interface is chosen: one the client
 * cannot read is skipped, so a card that also offers something else stays usable.
 */
function spokenAddresses(checked: CheckedCard): Spoken[] {
  if (checked.shape === '1.0') {
    return checked.card.supportedInterfaces.flatMap((i, n): Spoken[] =>
      overHttp(i.protocolBinding) ? [[['supportedInterfaces', n, 'url'], i.url, (url) => (i.url = url)]] : [],
    );
  }
  const { card } = checked;
  const extra = (card.additionalInterfaces ?? []).flatMap((i, n): Spoken[] =>
    overHttp(i.transport) ? [[['additionalInterfaces', n, 'url'], i.url, (url) => (i.url = url)]] : [],
  );
  return overHttp(card.preferredTransport) ? [[['url'], card.url, (url) => (card.url = url)], ...extra] : extra;
}

export function cardError(cardUrl: string, message: string, cause?: unknown): A2AError {
  const shown = redactQuery(cardUrl);
  return new A2AError({ kind: 'card', operation: 'card', agent: shown, message: `${message} (${shown})`, cause });
}
