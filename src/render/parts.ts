import type { AgentMessage, Part } from '../port/types.js';

/** The text of some parts: text parts joined with no separator; data and file parts (tool calls, files) skipped. */
export function textOf(parts: readonly Part[]): string {
  let text = '';
  for (const part of parts) if (part.kind === 'text') text += part.text;
  return text;
}

/** The text of an agent's message; undefined for user echoes and for messages without text. */
export function agentText(message: AgentMessage | undefined): string | undefined {
  if (message === undefined || message.role !== 'agent') return undefined;
  const text = textOf(message.parts);
  return text === '' ? undefined : text;
}

const PARTIAL_KEY = /(^|_)adk_partial$/;

/**
 * ADK and kagent flag streamed deltas with `adk_partial` / `kagent_adk_partial: true` metadata.
 * Such chunks are previews of text that arrives again, whole, in a non-partial event.
 */
export function isPartial(first: Record<string, unknown> | undefined, second?: Record<string, unknown>): boolean {
  return flagsPartial(first) || flagsPartial(second);
}

function flagsPartial(meta: Record<string, unknown> | undefined): boolean {
  if (meta === undefined) return false;
  for (const key in meta) if (meta[key] === true && PARTIAL_KEY.test(key)) return true;
  return false;
}

/** The last agent message after the last user message in a task's history (a status-only agent's answer). */
export function lastAgentAnswer(history: readonly AgentMessage[] | undefined): string | undefined {
  if (history === undefined) return undefined;
  for (let i = history.length - 1; i >= 0; i--) {
    const message = history[i]!;
    if (message.role === 'user') return undefined;
    const text = agentText(message);
    if (text !== undefined) return text;
  }
  return undefined;
}

/** gemini-cli's asides: status messages beside the answer (citations, thoughts), never part of it. */
const ASIDES: ReadonlySet<unknown> = new Set(['citation', 'thought']);

/** A status event that carries an aside (gemini-cli's `coderAgent.kind`), not the reply. */
export function isAside(metadata: Record<string, unknown> | undefined): boolean {
  const coder = metadata?.['coderAgent'];
  return typeof coder === 'object' && coder !== null && ASIDES.has((coder as { kind?: unknown }).kind);
}

/**
 * A status message that is one piece of a reply streamed in pieces, by its convention's marker rather
 * than by a shared messageId: the ADK/kagent partial flag, or gemini-cli's `coderAgent.kind:
 * "text-content"` (its published a2a-server gives every piece a messageId of its own; its main branch
 * gives them one). Such pieces join into the preview.
 */
export function isDelta(metadata: Record<string, unknown> | undefined): boolean {
  if (isPartial(metadata)) return true;
  const coder = metadata?.['coderAgent'];
  return typeof coder === 'object' && coder !== null && (coder as { kind?: unknown }).kind === 'text-content';
}
