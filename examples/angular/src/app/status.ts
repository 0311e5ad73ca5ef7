import { ANSWERED_ALREADY, answeredAlready, type Interrupt, type TurnView } from 'a4h-a2a/angular';

/** Whether the agent's card could be read at start: before the first message, the status line says "Ready" only once it was. */
export type Reach = { state: 'checking' } | { state: 'reachable'; name: string } | { state: 'unreachable'; message: string };

/**
 * The line under the messages: what is happening now, in a few words (`resuming`: the look for a
 * reply in flight at start; `loadingHistory`: a page of the thread's past loading; `question`: the
 * one the agent waits on).
 */
export function statusLine(
  view: TurnView | undefined,
  reach: Reach,
  agent: string,
  resuming = false,
  loadingHistory = false,
  question?: Interrupt,
): string {
  if (view === undefined) {
    if (reach.state === 'checking') return 'Connecting to the agent…';
    if (reach.state === 'unreachable') return `The agent at ${new URL(agent).host} cannot be reached (${reach.message}). Is it running?`;
    if (resuming) return 'Checking for a reply in progress…';
    if (loadingHistory) return 'Loading the conversation…';
    return `Ready: ${reach.name}`;
  }
  if (answeredAlready(view)) return ANSWERED_ALREADY;
  if (view.phase === 'error') return `Error: ${view.error?.message ?? 'the turn failed'}`;
  if (question !== undefined) return question.kind === 'auth' ? 'The agent asks you to sign in' : 'The agent asks: answer below';
  if (view.phase === 'ended') {
    if (view.outcome === 'completed') return 'Done';
    return view.outcome === 'canceled' ? 'Canceled' : `Ended: ${view.outcome ?? 'unknown'}`;
  }
  if (view.reconnecting) return 'Reconnecting…';
  if (view.polling) return 'Polling the task…';
  return view.preview ?? (view.reply === '' ? 'Thinking…' : 'Answering…');
}
