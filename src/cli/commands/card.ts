import { lastValueFrom } from 'rxjs';
import { type CardSummary, createA2A, describeScheme } from '../../node/index.js';
import { AGENT_OPTIONS, agentOptions, CONNECTION_SYNOPSIS, CONNECTION_USAGE } from '../agent-options.js';
import { TLS_USAGE } from '../tls.js';
import { cardGet } from '../card-get.js';
import { clientReach } from '../debug-client.js';
import { reportError } from '../errors.js';
import { exitStatusOf } from '../protocol/envelope.js';
import { UsageError, type Io } from '../io.js';
import { stderrLogger } from '../logger.js';
import { parse } from '../options.js';
import { terminalJson, terminalLine } from '../terminal-text.js';
import { describeSignature, TRUST_USAGE } from '../trust.js';

export const CARD_USAGE = `Usage: a4h card <agent-url> [--json] [--debug] [-H 'Name: value']… [--bearer-env VAR]
                [--oauth-client-id ID --oauth-client-secret-env VAR [--oauth-scope S]… [--oauth-token-url URL] [--oauth-card-scopes]]
                ${CONNECTION_SYNOPSIS}
                [--cert FILE] [--key FILE] [--key-pass-env VAR] [--cacert FILE]
                [--trust-jwks FILE|URL]… [--require-signed-card]

Resolves the agent's card and shows what the client will use: protocol version, transport,
streaming, tenant, skills, output modes, the extensions the card declares (a required one must be
activated with --extension on send, chat and resume), the security schemes the card declares and
whether credentials are configured for it, and the verdict on its signature (verified by KID,
unsigned, invalid: why, or not checked without --trust-jwks). With credentials and an agent that
offers an authenticated extended card, that card is fetched with them and shown. The A2A CLI
specification's card get (a host, a URL or a card file; -o json; --validate): see a4h card get --help.
--debug logs each request and answer on stderr (gRPC calls too), every credential redacted.
${CONNECTION_USAGE}
${TRUST_USAGE}
${TLS_USAGE}`;

/** The flags `a4h card` takes (its usage lists each; a test keeps them so). */
export const CARD_OPTIONS = {
  ...AGENT_OPTIONS,
  json: { type: 'boolean' },
  debug: { type: 'boolean' },
  verbose: { type: 'boolean', short: 'v' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** `a4h card`: the resolved card. */
export async function card(args: string[], io: Io): Promise<number> {
  // `a4h card get`: the A2A CLI specification's command (a host, a URL or a card file; -o json; --validate).
  if (args[0] === 'get') return cardGet(args.slice(1), io);
  const { values, positionals } = parse(args, CARD_OPTIONS);
  if (values.help) {
    io.out.write(`${CARD_USAGE}\n`);
    return 0;
  }
  const [agent, ...rest] = positionals;
  if (agent === undefined || rest.length > 0) throw new UsageError('card needs exactly one agent URL');
  const logger = stderrLogger(io, values.verbose === true);
  const given = await agentOptions(values, agent, io);
  const reach = clientReach(io, given, values.debug === true, logger);
  // The card needs no identity: a throwaway secret keeps the no-secret warning away.
  const client = createA2A({
    identitySecret: globalThis.crypto.randomUUID(),
    ...reach.options,
  });
  try {
    const summary = await lastValueFrom(client.card(agent));
    if (values.json) {
      io.out.write(`${terminalJson(JSON.stringify(summary))}\n`);
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
    if (summary.extended) rows.push(['card', 'the authenticated extended card']);
    rows.push(...extensionRows(summary), ...securityRows(summary), [
      'credentials',
      credentialsRow(summary, given.credentials !== undefined),
    ]);
    if (summary.signature) rows.push(['signature', describeSignature(summary.signature)]);
    // Every value may be the card's, which nobody vouched for: one line each, sanitized for the terminal.
    for (const [label, value] of rows) io.out.write(`${label.padEnd(13)} ${terminalLine(value)}\n`);
    const skills = summary.skills ?? [];
    io.out.write(`${'skills'.padEnd(13)} ${skills.length === 0 ? '(none)' : ''}\n`);
    for (const skill of skills) io.out.write(`  - ${terminalLine(`${skill.name}${skill.description ? `: ${skill.description}` : ''}`)}\n`);
    return 0;
  } catch (error) {
    reportError(io, error, values.verbose === true);
    return exitStatusOf(error);
  } finally {
    await client.close();
    await reach.close();
  }
}

/** One row per extension the card declares: its URI, whether it is required, what it is for. */
function extensionRows(summary: CardSummary): [string, string][] {
  const extensions = summary.extensions ?? [];
  if (extensions.length === 0) return [['extensions', '(none declared)']];
  return extensions.map((extension, n) => [
    n === 0 ? 'extensions' : '',
    `${extension.uri} (${extension.required ? 'required' : 'optional'})${extension.description ? `: ${extension.description}` : ''}`,
  ]);
}

/** One row per security scheme the card declares. */
function securityRows(summary: CardSummary): [string, string][] {
  const schemes = summary.securitySchemes ?? [];
  if (schemes.length === 0) return [['security', '(none declared)']];
  return schemes.map((scheme, n) => [n === 0 ? 'security' : '', describeScheme(scheme)]);
}

/** Whether credentials go to the agent, and which kind (never a value). */
function credentialsRow(summary: CardSummary, configured: boolean): string {
  if (summary.credentials) return `${summary.credentials}, sent to ${originOf(summary.url)}`;
  if (configured) return `configured, but not sent: the interface is on another origin (${originOf(summary.url)})`;
  return 'none configured (-H, --bearer, --api-key, --oauth-client-id, a4h auth login)';
}

/** The origin credentials are scoped by: a gRPC interface's (`grpcs://h:p`, `grpc://h:p`) is its https or http one. */
function originOf(url: string): string {
  const grpc = /^grpc(s?):\/\/(.*)$/.exec(url);
  return grpc ? `http${grpc[1]}://${grpc[2]}` : new URL(url).origin;
}
