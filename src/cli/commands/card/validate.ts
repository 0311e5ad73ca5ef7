import * as z from 'zod/mini';
import { describeIssue } from '../../output/zod-issue.js';

const nonEmpty = z.string().check(z.minLength(1));
const strings = z.array(z.string());

/** An `AgentSkill`: the fields A2A v1.0 marks REQUIRED (`spec/a2a.proto`). */
const skill = z.object({ id: nonEmpty, name: nonEmpty, description: nonEmpty, tags: strings });

/** An `AgentInterface`: its URL, binding and protocol version are REQUIRED. */
const agentInterface = z.object({ url: nonEmpty, protocolBinding: nonEmpty, protocolVersion: nonEmpty, tenant: z.optional(z.string()) });

/** An A2A v1.0 `AgentCard`: every field the protocol marks REQUIRED, with its type; the rest as typed when present. */
const v1Card = z.object({
  name: nonEmpty,
  description: nonEmpty,
  supportedInterfaces: z.array(agentInterface).check(z.minLength(1)),
  version: nonEmpty,
  capabilities: z.object({
    streaming: z.optional(z.boolean()),
    pushNotifications: z.optional(z.boolean()),
    extendedAgentCard: z.optional(z.boolean()),
  }),
  defaultInputModes: strings,
  defaultOutputModes: strings,
  skills: z.array(skill),
  securitySchemes: z.optional(z.record(z.string(), z.object({}))),
  documentationUrl: z.optional(z.string()),
  iconUrl: z.optional(z.string()),
});

/**
 * An A2A v0.3 `AgentCard` (its JSON schema's required fields): a card with `url` and no
 * `supportedInterfaces`. `protocolVersion` is one of them since v0.3.0: a card without it (A2A 0.2.4
 * and earlier, the first draft) is not a v0.3 card.
 */
const v03Card = z.object({
  name: nonEmpty,
  description: nonEmpty,
  url: nonEmpty,
  version: nonEmpty,
  capabilities: z.object({}),
  defaultInputModes: strings,
  defaultOutputModes: strings,
  skills: z.array(skill),
  preferredTransport: z.optional(z.string()),
  protocolVersion: nonEmpty,
});

/** What validating a card found: the protocol version its shape is, and each problem as `path: what`. */
export interface CardValidation {
  shape: '1.0' | '0.3';
  problems: string[];
}

/**
 * Checks a card's JSON against the A2A schema of its version (`card get --validate`): v1.0's
 * `AgentCard` (every field `spec/a2a.proto` marks REQUIRED, typed) or, for a card with `url` and no
 * `supportedInterfaces`, v0.3's. Every problem is listed, each with its JSON path, not only the first.
 */
export function validateCard(json: unknown): CardValidation {
  const card = (json ?? {}) as Record<string, unknown>;
  const shape = typeof json === 'object' && json !== null && !('supportedInterfaces' in card) && 'url' in card ? '0.3' : '1.0';
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { shape, problems: ['(card): not a JSON object'] };
  const result = (shape === '1.0' ? v1Card : v03Card).safeParse(json);
  const problems = result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.') || '(card)'} ${describeIssue(issue)}`);
  return { shape, problems };
}
