import type { AgentMessage, Elicitation } from './types.js';

/**
 * Why an interrupted turn stopped: the agent's question (or its sign-in request) as a value. Answer it
 * with `answerTo(interrupt, reply)`, whose result goes into the thread's next `turn`: the answer then
 * continues this task, names the requests it answers and (A2A 1.1) goes only while the task still waits
 * for it. A 1.0 or 0.3 agent's interrupt has no `elicitations` and no `generation`.
 */
export interface Interrupt {
  /** `input`: the agent asks the person something; `auth`: it needs the person to sign in or send credentials. */
  kind: 'input' | 'auth';
  /** The task waiting for the answer. */
  taskId: string;
  /** The task's conversation, when known. */
  contextId?: string;
  /** The question's text (its status message's text parts); '' when the agent said nothing. */
  text: string;
  /** The agent's whole status message (its parts: a form as a data part, files), when it sent one. */
  message?: AgentMessage;
  /**
   * A2A 1.1 (draft, ADR-002): the task's requests for input, when the agent sent them: `blocked` ones
   * hold the task, `waiting` ones do not; a state this client does not know is `unknown`.
   */
  elicitations?: Elicitation[];
  /** A2A 1.1 (draft): the task's generation at the question, when the agent keeps them. */
  generation?: number;
}
