/**
 * `npm run example:gateway`: the demo agent, three gateway replicas sharing one identity secret, and
 * haproxy in front of them, all on 127.0.0.1; prints haproxy's URL, a token from the development
 * issuer (token.mjs), which the replicas trust, and what to try. Ctrl+C stops everything.
 *
 *     node examples/gateway/start.mjs [--port N] [--push] [--messages-per-minute N] [--turns-per-person N]
 *
 * `--port` is haproxy's (default 8080); the fair-use limits are each replica's (gateway.mjs), so a person
 * spread over the three replicas gets up to three times them.
 *
 * With `--push` the replicas follow tasks by the demo agent's push notifications (gateway.mjs `--push`):
 * the agent posts each event to `<haproxy>/a2a/push/<replica>`, and haproxy routes it to that replica.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// The demo agent as `npm run build` builds it (dist/demo).
import { startDemoAgent } from '../../dist/demo/agent.js';
import { startCluster } from './cluster.mjs';
import { fairUseOf } from './fair-use.mjs';
import { devIssuer } from './token.mjs';
import { exampleArgs, usageError } from '../args.mjs';

const USAGE = `Usage: node examples/gateway/start.mjs [--port N] [--push] [--messages-per-minute N] [--turns-per-person N] [--verbose]
  the demo agent, three gateway replicas and haproxy in front of them, on 127.0.0.1 (needs npm run build, and haproxy)
  --port N                 haproxy's port (default 8080; 0 for a free one)
  --push                   follow tasks by the agent's push notifications, posted through haproxy to each replica
  --messages-per-minute N  per user and replica; past it 429 + Retry-After (default 30; 0: no limit)
  --turns-per-person N     streams (replies, resumes) one user may hold at once per replica (default 4; 0: no limit)
  -v, --verbose            haproxy's own log lines too`;
const { values } = exampleArgs(USAGE, {
  options: {
    port: { type: 'string' },
    push: { type: 'boolean' },
    verbose: { type: 'boolean', short: 'v' },
    'messages-per-minute': { type: 'string' },
    'turns-per-person': { type: 'string' },
  },
});
let fairUse;
try {
  fairUse = fairUseOf(values, process.env);
} catch (error) {
  usageError(USAGE, error instanceof Error ? error.message : String(error));
}
const port = Number(values.port ?? '8080');
if (!/^\d+$/.test(values.port ?? '8080') || port > 65_535) usageError(USAGE, `--port must be 0 to 65535, not ${values.port}`);

// The replicas share this secret and nothing else; set A4H_IDENTITY_SECRET to keep threads across runs.
const secret = process.env.A4H_IDENTITY_SECRET || randomBytes(24).toString('base64url');
const log = (line) => process.stderr.write(`${line}\n`);
const agent = await startDemoAgent({
  port: 0,
  memoryFile: join(await mkdtemp(join(tmpdir(), 'a4h-gateway-example-')), 'memory.json'),
  log: (line) => log(`agent: ${line}`),
});
const cluster = await startCluster({
  agent: agent.url,
  secret,
  port,
  ...(values.push ? { push: true } : {}),
  fairUse,
  log: (line) => (values.verbose || !line.startsWith('haproxy') ? log(line) : undefined),
});

const url = cluster.url;
const token = await (await devIssuer()).sign('alice');
process.stdout.write(`The gateway: ${url} (haproxy → replicas ${cluster.names.join(', ')} → the demo agent at ${agent.url})${
  values.push ? `\nTasks followed by push: the agent posts to ${url}a2a/push/<replica>, which haproxy routes to that replica.` : ''
}

Every request carries a token; here is one for the user alice, for an hour
(node examples/gateway/token.mjs <user> makes others):
  export A4H_GATEWAY_TOKEN=${token}

Try it — a slow reply, then kill the replica named in the client's [via replica …] line:
  node examples/gateway/client.mjs ${url} my-thread "slow tell me about replicas"
  kill -9 <pid of that replica>     (${cluster.names.map((name) => `${name}: ${cluster.replica(name).pid}`).join(', ')})
The client reconnects with Last-Event-ID through haproxy and prints exactly the rest.

Or with curl:
  curl -N -X POST ${url}threads/my-thread/messages -H "Authorization: Bearer $A4H_GATEWAY_TOKEN" -d '{"text":"hello"}'
  curl -N ${url}threads/my-thread/events -H "Authorization: Bearer $A4H_GATEWAY_TOKEN" -H 'Last-Event-ID: <an id: line from above>'

Ctrl+C stops everything.
`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await cluster.stop();
  await agent.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
