// A second message while the first reply streams: the thread's policy says what happens.
// `queue` (the default) answers both, in order; `supersede` ends the first reply (its task
// cancelled) and answers the second; `parallel` sends both at once.
//
//   node examples/node/second-message.mjs [AGENT_URL] [queue|supersede|parallel]
import { lastValueFrom } from 'rxjs';
import { createA2A } from 'a4h-a2a/node';

const args = process.argv.slice(2);
const flag = args.find((arg) => arg.startsWith('-'));
if (flag !== undefined) {
  // --help prints the usage; a flag it does not take prints it on stderr (exit 2).
  const out = flag === '--help' || flag === '-h' ? process.stdout : process.stderr;
  out.write(
    `${out === process.stderr ? `unknown flag ${flag}\n` : ''}Usage: node examples/node/second-message.mjs [AGENT_URL] [queue|supersede|parallel]\n`,
  );
  process.exit(out === process.stdout ? 0 : 2);
}
const [agent = 'http://127.0.0.1:41241/', secondMessage = 'queue'] = args;
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
