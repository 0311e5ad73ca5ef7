/**
 * A chat gateway replica's command line: the replica (replica.mjs, its routes routes.mjs) started with
 * its flags, until SIGTERM or SIGINT, when it hands its turns over and exits 0. cluster.mjs starts
 * replicas this way; a deployment does too.
 *
 *     A4H_IDENTITY_SECRET=… node examples/gateway/gateway.mjs --agent URL [--port N] [--name NAME]
 *       [--jwks FILE|URL --issuer ISS --audience AUD] [--heartbeat-ms N] [--max-buffered-bytes N] [--max-streams N]
 *       [--messages-per-minute N] [--turns-per-person N] [--a2ui-catalogs ID,ID|none]
 *       [--push http://BALANCER/ [--push-when offered|always|MS] [--push-check-ms N]]
 *
 * It prints `gateway NAME on URL` on stdout once it listens, and one line per request on stderr.
 */
import { hostname } from 'node:os';
import { startedAs } from '../started-as.mjs';
import { quote } from './request.mjs';
import { fairUseOf, MESSAGES_PER_MINUTE, TURNS_PER_PERSON } from './fair-use.mjs';
import { pushWhenOf } from './push.mjs';
import { a2uiCatalogsOf, DEFAULT_A2UI_CATALOGS } from './a2ui.mjs';
import { HEARTBEAT_MS, MAX_BUFFERED_BYTES, MAX_STREAMS, startGateway } from './replica.mjs';
import { exampleArgs, usageError } from '../args.mjs';

/** The replica's command line: runs until SIGTERM or SIGINT, then hands its turns over and exits 0. */
async function main() {
  const usage =
    'Usage: A4H_IDENTITY_SECRET=… node examples/gateway/gateway.mjs --agent URL [options]\n' +
    '  --agent URL                 the A2A agent (required)\n' +
    '  --port N, --host ADDRESS    where to listen (default a free port on 127.0.0.1, printed)\n' +
    '  --name NAME                 this replica in logs and the X-Replica header (default host:pid)\n' +
    '  --jwks FILE|URL             the identity provider’s keys, with --issuer and --audience\n' +
    '                              (default: the development issuer of token.mjs)\n' +
    `  --heartbeat-ms N            a comment on an idle stream this often (default ${HEARTBEAT_MS})\n` +
    `  --max-buffered-bytes N      unread bytes before a client is dropped (default ${MAX_BUFFERED_BYTES})\n` +
    `  --max-streams N             streams served at once; past them 503 + Retry-After (default ${MAX_STREAMS})\n` +
    `  --messages-per-minute N     messages one user may start a minute here; past it 429 + Retry-After (default\n` +
    `                              ${MESSAGES_PER_MINUTE}, or $A4H_GATEWAY_MESSAGES_PER_MINUTE; 0: no limit)\n` +
    `  --turns-per-person N        streams one user may hold at once here; past it 429 + Retry-After (default\n` +
    `                              ${TURNS_PER_PERSON}, or $A4H_GATEWAY_TURNS_PER_PERSON; 0: no limit)\n` +
    '  --lookup every-message      look for a pending question before every message (for clients that do not carry\n' +
    '                              its task id; a message then waits a round trip before it goes)\n' +
    '  --a2ui-catalogs IDS         the A2UI catalogs its browsers draw, told to agents whose card offers A2UI: ids\n' +
    `                              separated by commas, or none (default ${DEFAULT_A2UI_CATALOGS.join(',')},\n` +
    '                              or $A4H_GATEWAY_A2UI_CATALOGS)\n' +
    "  --push URL                  follow tasks by the agent's pushes, posted to URL/a2a/push/NAME: URL is the load\n" +
    "                              balancer's origin as the agent reaches it, which routes that path to this replica\n" +
    '  --push-when WHEN            offered (agents whose card offers push; default), always, or MS (a turn that ran\n' +
    '                              that long hands its task over to pushes)\n' +
    '  --push-check-ms N           a GetTask this often while a turn waits for pushes (default 30000)\n';
  const { values } = exampleArgs(usage.trimEnd(), {
    options: {
      agent: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      name: { type: 'string' },
      jwks: { type: 'string' },
      issuer: { type: 'string' },
      audience: { type: 'string' },
      'heartbeat-ms': { type: 'string' },
      'max-buffered-bytes': { type: 'string' },
      'max-streams': { type: 'string' },
      'messages-per-minute': { type: 'string' },
      'turns-per-person': { type: 'string' },
      lookup: { type: 'string' },
      push: { type: 'string' },
      'push-when': { type: 'string' },
      'push-check-ms': { type: 'string' },
      'a2ui-catalogs': { type: 'string' },
    },
  });
  if (!values.agent) usageError(usage.trimEnd(), 'gateway.mjs needs --agent URL');
  const count = (/** @type {string | undefined} */ value, /** @type {string} */ flag, max = 2 ** 31 - 1) => {
    if (value === undefined) return undefined;
    if (!/^\d+$/.test(value) || Number(value) > max) throw new Error(`${flag} must be a whole number up to ${max}, not ${quote(value)}`);
    return Number(value);
  };
  if (values.jwks && (!values.issuer || !values.audience)) throw new Error('--jwks needs --issuer and --audience');
  if (values.lookup && values.lookup !== 'every-message') throw new Error('--lookup takes every-message');
  if (!values.push && (values['push-when'] || values['push-check-ms']))
    throw new Error('--push-when and --push-check-ms go with --push URL');
  const push = values.push
    ? {
        via: values.push,
        ...(values['push-when'] ? { when: pushWhenOf(values['push-when']) } : {}),
        ...(values['push-check-ms'] ? { checkEveryMs: Math.max(100, count(values['push-check-ms'], '--push-check-ms') ?? 0) } : {}),
      }
    : undefined;
  const name = values.name ?? `${hostname()}:${process.pid}`;
  const gateway = await startGateway({
    agent: values.agent,
    port: count(values.port, '--port', 65_535) ?? 0,
    name,
    ...(values.host ? { host: values.host } : {}),
    ...(values.jwks ? { auth: { jwks: values.jwks, issuer: values.issuer ?? '', audience: values.audience ?? '' } } : {}),
    ...(values['heartbeat-ms'] ? { heartbeatMs: count(values['heartbeat-ms'], '--heartbeat-ms') } : {}),
    ...(values['max-buffered-bytes'] ? { maxBufferedBytes: count(values['max-buffered-bytes'], '--max-buffered-bytes') } : {}),
    ...(values['max-streams'] ? { maxStreams: count(values['max-streams'], '--max-streams', 100_000) } : {}),
    ...(values.lookup ? { lookup: /** @type {'every-message'} */ (values.lookup) } : {}),
    ...(push ? { push } : {}),
    fairUse: fairUseOf(values, process.env),
    a2uiCatalogs: a2uiCatalogsOf(values['a2ui-catalogs'], process.env),
    log: (line) => process.stderr.write(`gateway ${name}: ${line}\n`),
  });
  process.stdout.write(`gateway ${name} on ${gateway.url}\n`);
  const stop = (/** @type {string} */ signal) => {
    process.stderr.write(`gateway ${name}: ${signal}, handing its turns over\n`);
    gateway.close().then(() => process.exit(0));
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

if (startedAs(import.meta)) {
  main().catch((error) => {
    process.stderr.write(`gateway: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
