// One turn folded into a store: turnState() turns the events into views (phase, reply, state,
// outcome…), the shape a UI store keeps; each view the store takes is printed.
//
//   node examples/node/store.mjs [AGENT_URL] [MESSAGE]
import { BehaviorSubject } from 'rxjs';
import { catchTurnError, createA2A, initialTurnView, turnState } from 'a4h-a2a/node';
import { exampleArgs, usageError } from '../args.mjs';

const [agent = 'http://127.0.0.1:41241/', text = 'Hello!'] = args(2);
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

/** The command line: at most `most` positionals; --help prints the usage. */
function args(most) {
  const usage = `Usage: node examples/node/store.mjs [AGENT_URL] [MESSAGE]
  one turn folded into a store, each view printed (AGENT_URL default http://127.0.0.1:41241/)`;
  const { positionals } = exampleArgs(usage, { allowPositionals: true, options: {} });
  if (positionals.length > most) usageError(usage, `at most ${most} arguments, not ${positionals.length}`);
  return positionals;
}
