/**
 * The look for the thread's reply in flight when the page starts (`client.resume`): after a reload
 * mid-reply, the agent's task runs on, and the page follows it again. What each view of the resumed
 * turn says about that look, with no DOM.
 */
import type { TurnView } from 'a4h-a2a';

/** What the user column says for a resumed reply: the page does not know the message it answers. */
export const RESUMED_NOTE = '(your message from before the page was reloaded)';

/**
 * Where the look stands: `checking` until it settles; `found` once the agent's task is known (a
 * reply in progress, or a question it waits on); `none` when nothing is unfinished; `unsupported`
 * for an agent without `ListTasks` (v0.3); `failed` when the agent could not be asked.
 */
export type ResumeCheck =
  { state: 'checking' } | { state: 'found' } | { state: 'none' } | { state: 'unsupported' } | { state: 'failed'; message: string };

/**
 * The check a resumed turn's view stands for. A view with the agent's task is `found`; before it,
 * the turn is still looking, ends with outcome `none`, or fails before any task (`failed`, or
 * `unsupported` without `ListTasks`).
 */
export function resumeCheckOf(view: TurnView): ResumeCheck {
  if (view.taskId !== undefined) return { state: 'found' };
  if (view.phase === 'ended') return { state: 'none' };
  if (view.phase === 'error') {
    if (view.error?.kind === 'unsupported') return { state: 'unsupported' };
    return { state: 'failed', message: view.error?.message ?? 'unknown error' };
  }
  return { state: 'checking' };
}
