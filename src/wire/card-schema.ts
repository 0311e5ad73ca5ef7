import { z } from 'zod';
import { A2AError } from '../errors.js';

/**
 * The fields of an agent card the client relies on, validated before anything else reads the card.
 * Both shapes are accepted: v1.0 (`supportedInterfaces`) and v0.3 (a top-level `url`, with
 * `preferredTransport` and `additionalInterfaces`). Anything else on the card is passed through.
 */
const url = z.url({ protocol: /^https?$/ });
const text = z.string().max(10_000);

const skills = z
  .array(z.object({ id: text, name: text, description: text.optional() }).loose())
  .max(1_000)
  .optional();

const capabilities = z.object({ streaming: z.boolean().optional() }).loose();
const modes = z.array(z.string().max(200)).max(100);

const common = {
  name: z.string().min(1).max(1_000),
  description: text.optional(),
  capabilities: capabilities.optional(),
  defaultOutputModes: modes.optional(),
  skills,
};

/**
 * The SDK's v0.3 translation requires `capabilities`, `defaultInputModes`, `defaultOutputModes`,
 * `skills` and each skill's `tags`; cards in the field often leave them out, so absent ones are
 * filled with empty values instead of failing later with an SDK error.
 */
const v03Lenient = {
  capabilities: capabilities.default({}),
  defaultInputModes: modes.default([]),
  defaultOutputModes: modes.default([]),
  skills: z
    .array(z.object({ id: text, name: text, description: text.optional(), tags: z.array(text).max(100).default([]) }).loose())
    .max(1_000)
    .default([]),
};

const v1Card = z
  .object({
    ...common,
    supportedInterfaces: z
      .array(
        z
          .object({
            url,
            protocolBinding: z.string().min(1).max(100),
            protocolVersion: z.string().max(20).optional(),
            tenant: z.string().max(1_000).optional(),
          })
          .loose(),
      )
      .min(1)
      .max(100),
  })
  .loose();

const v03Card = z
  .object({
    ...common,
    ...v03Lenient,
    url,
    protocolVersion: z.string().max(20).optional(),
    preferredTransport: z.string().max(100).optional(),
    additionalInterfaces: z
      .array(z.object({ url, transport: z.string().min(1).max(100) }).loose())
      .max(100)
      .optional(),
  })
  .loose();

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
    const field = issue?.path.join('.') || '(card)';
    throw cardError(cardUrl, `the agent card's field ${field} is not usable: ${issue?.message ?? 'invalid'}`, result.error);
  }
  return isV1 ? { shape: '1.0', card: result.data as V1CardJson } : { shape: '0.3', card: result.data as V03CardJson };
}

export function cardError(cardUrl: string, message: string, cause?: unknown): A2AError {
  return new A2AError({ kind: 'card', operation: 'card', agent: cardUrl, message: `${message} (${cardUrl})`, cause });
}
