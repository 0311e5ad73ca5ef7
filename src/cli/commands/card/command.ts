import { showCard } from './get.js';
import { CONNECTION_SYNOPSIS, CONNECTION_USAGE } from '../../reach/agent-options.js';
import { defineCommand } from '../../core/command.js';
import { TASK_OPTIONS } from '../task/common.js';
import { TLS_USAGE } from '../../reach/tls.js';
import { TRUST_USAGE } from '../../reach/trust.js';
import { WIRE_USAGE } from '../../reach/wire-flags.js';

/** The flags `a4h card` takes (its usage lists each; a test keeps them so). */
export const CARD_OPTIONS = {
  ...TASK_OPTIONS,
  validate: { type: 'boolean' },
} as const;

/** `a4h card` and `a4h card get` (one command): the agent's card. */
export const card = defineCommand({
  name: 'card',
  usage: `Usage: a4h card [get] <agent> [-a REF] [-o text|json] [--validate] [--debug] [--transport BINDING]… [--a2a-version VERSION]
                [-H 'Name: value']… [--bearer-env VAR]
                [--oauth-client-id ID --oauth-client-secret-env VAR [--oauth-scope S]… [--oauth-token-url URL] [--oauth-card-scopes]]
                ${CONNECTION_SYNOPSIS}
                [--cert FILE] [--key FILE] [--key-pass-env VAR] [--cacert FILE]
                [--trust-jwks FILE|URL]… [--require-signed-card]

Resolves the agent's card and shows what the client will use (a4h card get is the same command, the
A2A CLI specification's name). The agent (<agent>, or -a/--agent-card REF): a host or host:port (its card
at /.well-known/agent-card.json: http:// on loopback, https:// elsewhere), a URL (a card URL ending in
.json is used as it is), or a card file (file://… or a path).
Output (stdout; notices and errors on stderr):
  text (default)  "Label: value" lines: Name, Description, Protocol Version, the Transport and URL chosen
                  for the calls (the newest protocol version, then --transport, then the card's order),
                  Streaming, Tenant, Output Modes, Card (when it is the authenticated extended card, fetched
                  with the credentials given), Credentials (which kind goes to which origin, never a value),
                  Signature (verified by KID, unsigned, invalid: why, or not checked without --trust-jwks),
                  Valid; then the Skills, Security Schemes and Extensions blocks (a required extension must
                  be activated with --extension on send, chat and resume).
  -o json         the AgentCard as the agent served it (or as the file holds it).
  A failure: Error:, Message:, Hint: on stderr; under -o json also {"error":{…}} on stdout.
  --validate             check the card against the A2A schema of its version (v1.0 AgentCard, or v0.3's):
                         every problem with its JSON path; an invalid card is A2ACLI_ERR_CARD_INVALID,
                         exit 1 (default: the card is checked only as far as the client needs)
  --verbose              an error's causes too
${WIRE_USAGE}
Any protocol version's card is shown (--a2a-version 1.0 asks for a v1.0 interface).
Exit status: 0 shown, 1 failure (an invalid card with --validate), 2 bad usage, 3 agent or card unreachable,
4 credentials missing or refused.
${CONNECTION_USAGE}
${TRUST_USAGE}
${TLS_USAGE}`,
  options: CARD_OPTIONS,
  failures: 'fields',
  aliases: ['get'],
  run: ({ values, positionals, io, mode, about }) => showCard(values, positionals, io, mode, about),
});
