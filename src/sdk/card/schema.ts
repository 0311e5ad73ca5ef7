import * as z from 'zod/mini';
import { A2AError } from '../../errors.js';
import { redactQuery } from '../../port/card-url.js';
import { describeIssue, issuePath } from '../../validation.js';
import { bindingNamed } from '../bindings/registry.js';

/**
 * The fields of an agent card the client relies on, validated before anything else reads the card.
 * Both shapes are accepted: v1.0 (`supportedInterfaces`) and v0.3 (a top-level `url`, with
 * `preferredTransport` and `additionalInterfaces`). Anything else on the card is passed through.
 */
/** An http(s) URL without a user or password in it (credentials go in headers, never in a card). */
const url = z
  .url({ protocol: /^https?$/ })
  .check(z.refine((value: string) => !/^[a-z+.-]+:\/\/[^/?#]*@/i.test(value), { error: 'must not carry credentials' }));
const upTo = (max: number) => z.string().check(z.maxLength(max));
/** An interface's address before its binding is known: gRPC interfaces give `host:port`, not a URL. */
const address = upTo(2_000);

/**
 * Whether an interface's addresses are checked as http(s) URLs: its binding's are (a binding over
 * HTTP), or it names none (v0.3's `url` without `preferredTransport`). Others (gRPC's `host:port`)
 * are read when an interface is chosen, by their binding (`agent/choose-interface.ts`).
 */
const overHttp = (binding: string | undefined): boolean => binding === undefined || bindingNamed(binding)?.http !== undefined;
const between = (min: number, max: number) => z.string().check(z.minLength(min), z.maxLength(max));
const list = <T extends z.ZodMiniType>(item: T, max: number) => z.array(item).check(z.maxLength(max));
const text = upTo(10_000);

const modes = list(upTo(200), 100);
const skills = z.optional(
  list(z.looseObject({ id: text, name: text, description: z.optional(text), inputModes: z.optional(modes) }), 1_000),
);
/** The extensions a card declares: what the client reads of each (whether it is required above all). */
const extensions = list(
  z.looseObject({
    uri: between(1, 2_048),
    description: z.optional(text),
    required: z.optional(z.boolean()),
    params: z.optional(z.unknown()),
  }),
  100,
);
const capabilities = z.looseObject({ streaming: z.optional(z.boolean()), extensions: z.optional(extensions) });

const common = {
  name: between(1, 1_000),
  description: z.optional(text),
  capabilities: z.optional(capabilities),
  defaultInputModes: z.optional(modes),
  defaultOutputModes: z.optional(modes),
  skills,
};

/**
 * The SDK's v0.3 translation requires `capabilities`, `defaultInputModes`, `defaultOutputModes`,
 * `skills` and each skill's `tags`; cards in the field often leave them out, so absent ones are
 * filled with empty values instead of failing later with an SDK error.
 */
const v03Lenient = {
  capabilities: z._default(capabilities, {}),
  defaultInputModes: z._default(modes, []),
  defaultOutputModes: z._default(modes, []),
  skills: z._default(
    list(z.looseObject({ id: text, name: text, description: z.optional(text), tags: z._default(list(text, 100), []) }), 1_000),
    [],
  ),
};

const v1Card = z.looseObject({
  ...common,
  supportedInterfaces: list(
    z.looseObject({
      url: address,
      protocolBinding: between(1, 100),
      protocolVersion: z.optional(upTo(20)),
      tenant: z.optional(upTo(1_000)),
    }),
    100,
  ).check(z.minLength(1)),
});

const v03Card = z.looseObject({
  ...common,
  ...v03Lenient,
  url: address,
  protocolVersion: z.optional(upTo(20)),
  preferredTransport: z.optional(upTo(100)),
  additionalInterfaces: z.optional(list(z.looseObject({ url: address, transport: between(1, 100) }), 100)),
});

export type V1CardJson = z.infer<typeof v1Card>;
export type V03CardJson = z.infer<typeof v03Card>;

/** A card that passed validation, with the shape it came in. */
export type CheckedCard = { shape: '1.0'; card: V1CardJson } | { shape: '0.3'; card: V03CardJson };

/** Validates a fetched card; the error names the first bad field. */
export function checkCard(json: unknown, cardUrl: string): CheckedCard {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw cardError(cardUrl, 'the agent card is not a JSON object');
  }
  const isV1 = 'supportedInterfaces' in json;
  const result = isV1 ? v1Card.safeParse(json) : v03Card.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw cardError(
      cardUrl,
      `the agent card's field ${issuePath(issue, '(card)')} is not usable: it ${describeIssue(issue)}`,
      result.error,
    );
  }
  const checked: CheckedCard = isV1
    ? { shape: '1.0', card: result.data as V1CardJson }
    : { shape: '0.3', card: result.data as V03CardJson };
  for (const [field, value] of spokenAddresses(checked)) {
    const parsed = url.safeParse(value);
    if (!parsed.success) {
      throw cardError(cardUrl, `the agent card's field ${field} is not usable: it ${describeIssue(parsed.error.issues[0])}`, parsed.error);
    }
  }
  return checked;
}

/**
 * The addresses of the HTTP interfaces, by field: each must be an http(s) URL. Others (gRPC's
 * `host:port`) are read when an interface is chosen: one the client cannot read is skipped, so a
 * card that also offers something else stays usable.
 */
function spokenAddresses(checked: CheckedCard): [string, string][] {
  if (checked.shape === '1.0') {
    return checked.card.supportedInterfaces.flatMap((i, n) =>
      overHttp(i.protocolBinding) ? [[`supportedInterfaces.${n}.url`, i.url]] : [],
    );
  }
  const { card } = checked;
  const extra = (card.additionalInterfaces ?? []).flatMap((i, n): [string, string][] =>
    overHttp(i.transport) ? [[`additionalInterfaces.${n}.url`, i.url]] : [],
  );
  return overHttp(card.preferredTransport) ? [['url', card.url], ...extra] : extra;
}

export function cardError(cardUrl: string, message: string, cause?: unknown): A2AError {
  const shown = redactQuery(cardUrl);
  return new A2AError({ kind: 'card', operation: 'card', agent: shown, message: `${message} (${shown})`, cause });
}
