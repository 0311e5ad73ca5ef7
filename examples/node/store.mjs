// One turn folded into a store: turnState() turns the events into views (phase, reply, state,
// outcome…), the shape a UI store keeps; each view the store takes is printed.
//
//   node examples/node/store.mjs [AGENT_URL] [MESSAGE]
import { BehaviorSubject } from 'rxjs';
import { catchTurnError, createA2A, initialTurnView, turnState } from 'a4h-a2a/node';

const args = process.argv.slice(2);
const flag = args.find((arg) => arg.startsWith('-'));
if (flag !== undefined) {
  // --help prints the usage; a flag it does not take prints it on stderr (exit 2).
  const out = flag === '--help' || flag === '-h' ? process.stdout : process.stderr;
  out.write(`${out === process.stderr ? `unknown flag ${flag}\n` : ''}Usage: node examples/node/store.mjs [AGENT_URL] [MESSAGE]\n`);
  process.exit(out === process.stdout ? 0 : 2);
}
const [agent = 'http://127.0.0.1:41241/', text = 'Hello!'] = args;
const a2a = createA2A({ logger: console });

const store = new BehaviorSubject(initialTurnView);
const column = (value, width) => (value ?? '-').slice(0, width).padEnd(width);
store.subscribe((view) => {
  console.log(
    [column(view.phase, 7), column(view.taskId, 8), column(view.state, 9), column(view.outcome, 9), JSON.stringify(view.reply)].join(' '),
  );
  if (view.phase === 'error') console.error(`error: ${view.error.message}`);
});

a2a
  .turn({ agent, handle: 'demo', thread: 'node-example-store', text })
  .pipe(catchTurnError(), turnState()) // an error becomes a last view, phase 'error'
  .subscribe({
    next: (view) => store.next(view),
    complete: () => {
      if (store.value.phase === 'error') process.exitCode = 1;
      void a2a.close();
    },
  });
