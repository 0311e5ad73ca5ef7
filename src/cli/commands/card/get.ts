import { lastValueFrom } from 'rxjs';
import { A2AError, type CardSummary, describeScheme, isA2AError, within } from '../../../node/index.js';
import { validateCard } from './validate.js';
import { agentArg } from '../../core/flags.js';
import { notice, UsageError, type Io } from '../../core/io.js';
import { printResult } from '../../output/print.js';
import type { TextBlock, TextRecord } from '../../output/output.js';
import { onAgent, REQUEST_TIMEOUT_MS } from '../task/common.js';
import type { About } from '../../core/command.js';
import type { OutputMode } from '../../output/output.js';
import { terminalLine } from '../../output/terminal-text.js';
import { describeSignature } from '../../reach/trust.js';

/** The flags of `a4h card`, parsed (its options table is in commands/card.ts). */
export interface CardFlags {
  'agent-card'?: string | undefined;
  output?: string | undefined;
  validate?: boolean | undefined;
  'a2a-version'?: string | undefined;
  verbose?: boolean | undefined;
}

/**
 * `a4h card` (and `a4h card get`, the same command): the card a reference names (a host, a URL or a
 * card file), as one record of `Label: value` lines, or under `-o json` the AgentCard as it was served.
 */
export async function showCard(
  values: CardFlags & Record<string, unknown>,
  positionals: string[],
  io: Io,
  mode: OutputMode,
  about: About,
): Promise<number> {
  const { ref, rest } = agentArg(values, positionals, 'card');
  if (rest.length > 0) throw new UsageError('card needs exactly one agent: a host, a URL or a card file');
  // Any card is shown, a v0.3 agent's too: the version floor applies only when asked for.
  const flags = { ...values, 'a2a-version': values['a2a-version'] ?? '0.3' };
  return onAgent({ io, about, values: flags }, { agent: ref }, async (agent) => {
    let summary: CardSummary | undefined;
    let failure: unknown;
    try {
      summary = await lastValueFrom(agent.port.card().pipe(within<CardSummary>(REQUEST_TIMEOUT_MS, 'card', 'card')));
    } catch (error) {
      failure = error;
    }
    const served = agent.servedCard();
    // One verdict: a card the schema refuses, or one the client could not use (its failure is the verdict), is never said to be valid.
    if (values.validate && served !== undefined) {
      const { shape, problems } = validateCard(served);
      if (problems.length > 0) {
        // The client's own reason joins the schema's when it refused the card too.
        const refused = isA2AError(failure, 'card') ? [failure.message] : [];
        throw new A2AError({
          kind: 'card',
          operation: 'card',
          message: `the agent card is not a valid A2A ${shape} AgentCard: ${[...problems, ...refused].join('; ')}`,
          ...(failure === undefined ? {} : { cause: failure }),
        });
      }
      if (summary !== undefined) notice(io, `the card is a valid A2A ${shape} AgentCard`);
    }
    if (summary === undefined) throw failure;
    printResult(io, mode, (served ?? summary) as Record<string, unknown>, cardRecord(summary, values.validate === true));
    return 0;
  });
}

/** Lines of a block, one per item: each the card's text on one line (a newline or a control in it cannot start another). */
const lines = (items: readonly string[]) => items.map(terminalLine).join('\n');

/** The card's record: its fields, then its skills, security schemes and extensions as blocks. */
export function cardRecord(summary: CardSummary, validated: boolean): TextRecord {
  const blocks: TextBlock[] = [];
  const skills = summary.skills ?? [];
  if (skills.length > 0)
    blocks.push({ label: 'Skills', body: lines(skills.map((s) => `${s.name}${s.description ? `: ${s.description}` : ''}`)) });
  const schemes = summary.securitySchemes ?? [];
  // The schemes and extensions say so when the card declares none: an agent that asks for nothing is worth knowing.
  blocks.push({ label: 'Security Schemes', body: schemes.length === 0 ? '(none declared)' : lines(schemes.map((s) => describeScheme(s))) });
  const extensions = summary.extensions ?? [];
  const line = (e: (typeof extensions)[number]) =>
    `${e.uri} (${e.required ? 'required: activate it with --extension' : 'optional'})${e.description ? `: ${e.description}` : ''}`;
  blocks.push({ label: 'Extensions', body: extensions.length === 0 ? '(none declared)' : lines(extensions.map(line)) });
  return {
    fields: [
      ['Name', summary.name],
      ['Description', summary.description],
      ['Protocol Version', summary.protocolVersion],
      ['Transport', summary.transport],
      ['URL', summary.url],
      ['Streaming', summary.streaming ? 'yes' : 'no'],
      ['Tenant', summary.tenant],
      ['Output Modes', summary.defaultOutputModes?.join(', ')],
      ['Card', summary.extended ? 'the authenticated extended card' : undefined],
      ['Credentials', credentialsField(summary)],
      ['Signature', summary.signature ? describeSignature(summary.signature) : undefined],
      ['Valid', validated ? 'yes' : undefined],
    ],
    blocks,
  };
}

/** Whether credentials go to the agent, and which kind (never a value). */
function credentialsField(summary: CardSummary): string {
  if (summary.credentials) return `${summary.credentials}, sent to ${originOf(summary.url)}`;
  return 'none sent (-H, --bearer, --api-key, --oauth-client-id, a4h auth login give them)';
}

/** The origin credentials are scoped by: a gRPC interface's (`grpcs://h:p`, `grpc://h:p`) is its https or http one. */
function originOf(url: string): string {
  const grpc = /^grpc(s?):\/\/(.*)$/.exec(url);
  return grpc ? `http${grpc[1]}://${grpc[2]}` : new URL(url).origin;
}
