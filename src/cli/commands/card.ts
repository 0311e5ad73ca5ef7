import { lastValueFrom } from 'rxjs';
import { createA2A } from '../../node/create-a2a.js';
import { isBadInput, reportError } from '../errors.js';
import { UsageError, type Io } from '../io.js';
import { parse } from '../options.js';

export const CARD_USAGE = `Usage: a4h card <agent-url> [--json]

Resolves the agent's card and shows what the client will use: protocol version, transport,
streaming, tenant, skills and output modes.`;

/** `a4h card`: the resolved card. */
export async function card(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(args, {
    json: { type: 'boolean' },
    verbose: { type: 'boolean', short: 'v' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.out.write(`${CARD_USAGE}\n`);
    return 0;
  }
  const [agent, ...rest] = positionals;
  if (agent === undefined || rest.length > 0) throw new UsageError('card needs exactly one agent URL');
  // The card needs no identity: a throwaway secret keeps the no-secret warning away.
  const client = createA2A({ identitySecret: globalThis.crypto.randomUUID() });
  try {
    const summary = await lastValueFrom(client.card(agent));
    if (values.json) {
      io.out.write(`${JSON.stringify(summary)}\n`);
      return 0;
    }
    const rows: [string, string][] = [
      ['name', summary.name],
      ['protocol', `A2A ${summary.protocolVersion}`],
      ['transport', `${summary.transport} ${summary.url}`],
      ['streaming', summary.streaming ? 'yes' : 'no (blocking sends)'],
      ['tenant', summary.tenant ?? '(none)'],
      ['output modes', summary.defaultOutputModes?.join(', ') ?? '(not declared)'],
    ];
    if (summary.description) rows.splice(1, 0, ['description', summary.description]);
    for (const [label, value] of rows) io.out.write(`${label.padEnd(13)} ${value}\n`);
    const skills = summary.skills ?? [];
    io.out.write(`${'skills'.padEnd(13)} ${skills.length === 0 ? '(none)' : ''}\n`);
    for (const skill of skills) io.out.write(`  - ${skill.name}${skill.description ? `: ${skill.description}` : ''}\n`);
    return 0;
  } catch (error) {
    reportError(io, error, values.verbose === true);
    return isBadInput(error) ? 2 : 1;
  } finally {
    await client.close();
  }
}
