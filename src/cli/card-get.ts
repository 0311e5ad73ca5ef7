import { lastValueFrom } from 'rxjs';
import { A2AError, type CardSummary, within } from '../node/index.js';
import { validateCard } from './card-validate.js';
import { notice, UsageError, type Io } from './io.js';
import { parse } from './options.js';
import { printResult } from './protocol/print.js';
import type { TextBlock, TextRecord } from './protocol/output.js';
import { modeOf, onAgent, REQUEST_TIMEOUT_MS, TASK_COMMON_USAGE, TASK_OPTIONS } from './task/common.js';
import { describeSignature } from './trust.js';

export const CARD_GET_USAGE = `Usage: a4h card get <REF> [--validate] [-o text|json]   (or -a REF)

Resolves the agent's card from a host (its card at /.well-known/agent-card.json: http:// on loopback,
https:// elsewhere), a URL (a card URL ending in .json is used as it is), or a card file (file://… or a
path), and shows it as "Label: value" lines: name, protocol version, the transport and URL chosen for
the calls (the newest protocol version, then the client's binding preference, then the card's order),
streaming, tenant, signature; then its skills, security schemes and extensions as blocks. -o json
prints the AgentCard as the agent served it (or as the file holds it).
  --validate             check the card against the A2A schema of its version (v1.0 AgentCard, or v0.3's):
                         every problem with its JSON path; an invalid card is A2ACLI_ERR_CARD_INVALID,
                         exit 1 (default: the card is checked only as far as the client needs)
${TASK_COMMON_USAGE}`;

/** `a4h card get`: the card a reference names, as the specification's `card get`. */
export async function cardGet(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(args, { ...TASK_OPTIONS, validate: { type: 'boolean' } });
  if (values.help) {
    io.out.write(`${CARD_GET_USAGE}\n`);
    return 0;
  }
  const ref = values['agent-card'] ?? positionals[0];
  if (ref === undefined || positionals.length > (values['agent-card'] === undefined ? 1 : 0)) {
    throw new UsageError('card get needs exactly one agent: a host, a URL or a card file');
  }
  const mode = modeOf(values);
  // Any card is shown, a v0.3 agent's too: the version floor applies only when asked for.
  const flags = { ...values, 'a2a-version': values['a2a-version'] ?? '0.3' };
  return onAgent(io, mode, { command: 'card get', agent: ref }, flags, async (agent) => {
    let summary: CardSummary | undefined;
    let failure: unknown;
    try {
      summary = await lastValueFrom(agent.port.card().pipe(within<CardSummary>(REQUEST_TIMEOUT_MS, 'card', 'card')));
    } catch (error) {
      failure = error;
    }
    const served = agent.servedCard();
    if (values.validate && served !== undefined) {
      const { shape, problems } = validateCard(served);
      if (problems.length > 0) {
        throw new A2AError({
          kind: 'card',
          operation: 'card',
          message: `the agent card is not a valid A2A ${shape} AgentCard: ${problems.join('; ')}`,
        });
      }
      notice(io, `the card is a valid A2A ${shape} AgentCard`);
    }
    if (summary === undefined) throw failure;
    printResult(io, mode, (served ?? summary) as Record<string, unknown>, cardRecord(summary, values.validate === true));
    return 0;
  });
}

/** The card's record: its fields, then its skills, security schemes and extensions as blocks. */
function cardRecord(summary: CardSummary, validated: boolean): TextRecord {
  const blocks: TextBlock[] = [];
  const skills = summary.skills ?? [];
  if (skills.length > 0)
    blocks.push({ label: 'Skills', body: skills.map((s) => `${s.name}${s.description ? `: ${s.description}` : ''}`).join('\n') });
  const schemes = summary.securitySchemes ?? [];
  if (schemes.length > 0) blocks.push({ label: 'Security Schemes', body: schemes.map((s) => JSON.stringify(s)).join('\n') });
  const extensions = summary.extensions ?? [];
  if (extensions.length > 0)
    blocks.push({ label: 'Extensions', body: extensions.map((e) => `${e.uri} (${e.required ? 'required' : 'optional'})`).join('\n') });
  return {
    fields: [
      ['Name', summary.name],
      ['Description', summary.description],
      ['Protocol Version', summary.protocolVersion],
      ['Transport', summary.transport],
      ['URL', summary.url],
      ['Streaming', summary.streaming ? 'yes' : 'no'],
      ['Tenant', summary.tenant],
      ['Signature', summary.signature ? describeSignature(summary.signature) : undefined],
      ['Valid', validated ? 'yes' : undefined],
    ],
    blocks,
  };
}
