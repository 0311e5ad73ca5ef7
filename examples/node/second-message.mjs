// A second message while the first reply streams: the thread's policy says what happens.
// `queue` (the default) answers both, in order; `supersede` ends the first reply (its task
// cancelled) and answers the second; `parallel` sends both at once.
//
//   node examples/node/second-message.mjs [AGENT_URL] [queue|supersede|parallel]
import { lastValueFrom } from 'rxjs';
import { createA2A } from 'a4h-a2a/node';
import { exampleArgs, usageError } from '../args.mjs';

const [agent = 'http://127.0.0.1:41241/', secondMessage = 'queue'] = args(2);
const a2a = createA2A({ policy: { secondMessage } });
const thread = { agent, handle: 'demo', thread: `second-message-${Date.now()}` };

// Both messages go at once, as a person typing twice would send them.
const replies = ['Tell me about tea.', 'And coffee?'].map((text) =>
  lastValueFrom(a2a.turn({ ...thread, text })).then(
    (end) => `${text} → ${end.outcome}: ${end.text.slice(0, 40)}…`,
    (error) => `${text} → ${error.kind}: ${error.message}`,
  ),
);
for (const reply of await Promise.all(replies)) console.log(reply);
await a2a.close();

/** The command line: at most `most` positionals; --help prints the usage. */
function args(most) {
  const usage = `Usage: node examples/node/second-message.mjs [AGENT_URL] [queue|supersede|parallel]
  a second message while the first reply streams, under the thread's policy (default queue)`;
  const { positionals } = exampleArgs(usage, { allowPositionals: true, options: {} });
  if (positionals.length > most) usageError(usage, `at most ${most} arguments, not ${positionals.length}`);
  return positionals;
}
