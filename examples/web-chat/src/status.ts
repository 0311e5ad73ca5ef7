/**
 * The chat's status line, derived from its state (chat.ts): connecting, checking for a reply in
 * progress, loading the past, ready; what the running turn is doing; how the last one ended.
 */
import type { TurnView } from 'a4h-a2a';
import type { AgentReach, Exchange } from './exchange.js';
import type { ResumeCheck } from './resume.js';

/** The line under the messages: what the running turn is doing, or how the last one ended. */
export interface Status {
  tone: 'idle' | 'busy' | 'warn' | 'error';
  text: string;
  /** `reconnecting`, `polling`: the library's recovery, shown as badges. */
  flags: string[];
}

/** The idle line: "Ready" only once the agent answered. */
function idleStatus(reach: AgentReach, agent: string): Status {
  if (reach.state === 'checking') return { tone: 'busy', text: 'Connecting to the agent…', flags: [] };
  if (reach.state === 'unreachable') {
    const text = `The agent at ${new URL(agent).host} cannot be reached (${reach.message}). Is it running?`;
    return { tone: 'error', text, flags: [] };
  }
  return { tone: 'idle', text: 'Ready', flags: [] };
}

/**
 * The line before any exchange: the idle line, while the past loads or the look for a reply in flight
 * checks, or, quietly, why it could not.
 */
function startStatus(reach: AgentReach, resume: ResumeCheck, opened: boolean, agent: string): Status {
  const idle = idleStatus(reach, agent);
  if (idle.tone === 'error') return idle;
  if (resume.state === 'checking') return { tone: 'busy', text: 'Checking for a reply in progress…', flags: [] };
  if (!opened) return { tone: 'busy', text: 'Loading the conversation…', flags: [] };
  if (resume.state === 'failed' && reach.state === 'reachable') {
    return { tone: 'idle', text: `Ready (could not check for a reply in progress: ${resume.message})`, flags: [] };
  }
  return idle;
}

export function statusOf(exchange: Exchange | undefined, reach: AgentReach, resume: ResumeCheck, opened: boolean, agent: string): Status {
  if (exchange === undefined) return startStatus(reach, resume, opened, agent);
  const idle = idleStatus(reach, agent);
  const { view } = exchange;
  if (exchange.stopped)
    return { tone: 'warn', text: 'Stopped: you cancelled the turn, and the agent was told to cancel its task.', flags: [] };
  if (view.phase === 'error') return { tone: 'error', text: `Error: ${view.error?.message ?? 'the turn failed'}`, flags: [] };
  if (view.phase === 'ended') {
    return view.outcome === 'completed' ? idle : { tone: 'warn', text: `The turn ended: ${outcomeText(view)}`, flags: [] };
  }
  const flags = [...(view.reconnecting ? ['reconnecting'] : []), ...(view.polling ? ['polling'] : [])];
  let text = 'Sending…';
  if (view.authRequired) text = `The agent asks you to sign in${view.authRequired.text ? `: ${view.authRequired.text}` : ''}`;
  else if (view.preview !== undefined) text = view.preview;
  else if (view.reply !== '') text = 'The agent is answering…';
  else if (view.state !== undefined) text = `The agent is ${view.state}…`;
  return { tone: 'busy', text, flags };
}

/** How a turn (or an exchange of the past) that did not complete ended, in words. */
export function outcomeText(view: Pick<TurnView, 'outcome'>): string {
  switch (view.outcome) {
    case 'input-required':
      return 'the agent needs more input';
    case 'auth-required':
      return 'the agent needs you to sign in';
    case 'failed':
      return 'the agent failed';
    case 'rejected':
      return 'the agent rejected the request';
    case 'canceled':
      return 'the task was cancelled';
    default:
      return view.outcome ?? 'unknown';
  }
}
