// A reply streamed into a chat platform's messages, the way a Slack or Discord bot shows it: one
// message edited as the reply grows, no faster than the platform allows, split into more messages
// past its length limit; at the end the messages hold exactly the reply. A 429 from the platform is
// waited out (its Retry-After) and the request made again, with the text of then.
//
//   node examples/node/platform.mjs PLATFORM_URL [AGENT_URL] [MESSAGE] [--max-length N] [--per-second N]
//
// PLATFORM_URL is the platform's message API: POST {url}/messages {text} → {id}; PATCH and DELETE
// {url}/messages/{id}. (A real bot calls its platform's own API here: chat.postMessage, chat.update…)
import { parseArgs } from 'node:util';
import { defer, distinctUntilChanged, lastValueFrom, map, retry, throwError, timer } from 'rxjs';
import { catchTurnError, createA2A, platformEdits, turnState } from 'a4h-a2a/node';

const USAGE = `Usage: node examples/node/platform.mjs PLATFORM_URL [AGENT_URL] [MESSAGE] [--max-length N] [--per-second N]
  --max-length N   the platform's longest message (default 4000)
  --per-second N   edits a second at most (default 1)`;
/** --help: the usage on stdout, exit 0; what is wrong with the command line: it and the usage on stderr, exit 2. */
const usage = (/** @type {string} */ problem = '') => {
  (problem ? process.stderr : process.stdout).write(`${problem ? `${problem}\n` : ''}${USAGE}\n`);
  process.exit(problem ? 2 : 0);
};
let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      'max-length': { type: 'string', default: '4000' },
      'per-second': { type: 'string', default: '1' },
    },
  });
} catch (error) {
  usage(error instanceof Error ? error.message : String(error));
}
const { positionals, values } = /** @type {NonNullable<typeof parsed>} */ (parsed);
if (values.help) usage();
const [platform, agent = 'http://127.0.0.1:41241/', text = 'Tell me a story.'] = positionals;
if (platform === undefined || positionals.length > 3) usage('platform.mjs needs PLATFORM_URL, then at most AGENT_URL and MESSAGE');
const a2a = createA2A();

/** The platform's ids of the reply's messages, by their index. */
const ids = [];
/** One request to the platform; a 429 fails with the wait its Retry-After asks for. */
async function request(edit) {
  const url = edit.kind === 'post' ? `${platform}/messages` : `${platform}/messages/${ids[edit.message]}`;
  const method = { post: 'POST', edit: 'PATCH', delete: 'DELETE' }[edit.kind];
  const body = JSON.stringify({ text: edit.text });
  const response = await fetch(url, { method, headers: { 'content-type': 'application/json' }, body });
  if (response.status === 429) {
    throw Object.assign(new Error('rate limited'), { retryAfterMs: Number(response.headers.get('retry-after') ?? 1) * 1000 });
  }
  if (!response.ok) throw new Error(`the platform answered ${response.status}`);
  if (edit.kind === 'post') ids[edit.message] = (await response.json()).id;
}

let reply = '';
const edits = a2a.turn({ agent, handle: 'demo', thread: `platform-${Date.now()}`, text }).pipe(
  catchTurnError(),
  turnState(),
  map((view) => (reply = view.phase === 'error' ? `(${view.error.message})` : view.reply)),
  distinctUntilChanged(),
  platformEdits({
    maxLength: Number(values['max-length']),
    perSecond: Number(values['per-second']),
    // One request at a time; a 429 is waited out and made again (a few times at most).
    send: (edit) =>
      defer(() => request(edit)).pipe(
        retry({ count: 5, delay: (error) => (error.retryAfterMs ? timer(error.retryAfterMs) : throwError(() => error)) }),
      ),
  }),
);
try {
  await lastValueFrom(edits, { defaultValue: undefined });
  console.log(`${ids.length} message(s), ${reply.length} characters`);
} catch (error) {
  console.error(`error: ${error.message}`);
  process.exitCode = 1;
} finally {
  await a2a.close();
}
