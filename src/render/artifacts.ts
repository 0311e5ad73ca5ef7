import { A2AError } from '../errors.js';
import type { TextEvent } from '../port/events.js';
import type { Artifact } from '../port/types.js';
import { isPartial, textOf } from './parts.js';
import { TextRope } from './rope.js';

/** Text of separate artifacts is joined with a blank line; parts within one artifact join with nothing. */
export const ARTIFACT_SEPARATOR = '\n\n';

/** Where text events go: any array of events. */
type TextOut = { push(event: TextEvent): unknown };

interface ArtifactText {
  text: string;
  /** An ADK/kagent partial (delta) artifact: shown as preview, never part of the reply. */
  partial: boolean;
  /** What `text` is kept in once appends have grown it (made at the first append). */
  rope?: TextRope;
}

/**
 * The reply as a turn's artifacts give it, and the text events that show it. It keeps each
 * artifact's text and only the length of the reply shown (the fold of every text event), because
 * that reply always equals the artifacts' one. An append to the last artifact is shown in O(1);
 * anything else (a replace, a snapshot) by comparing the reply before and after, so a replayed
 * snapshot shows nothing new.
 */
export class ArtifactReply {
  private readonly artifacts = new Map<string, ArtifactText>();
  private shownLength = 0;
  /** The artifact whose text ends the reply shown, when there is one. */
  private tail: ArtifactText | undefined;
  /** The artifact that came last (the map's last entry). */
  private last: ArtifactText | undefined;

  /**
   * `maxChars`, the longest reply kept, and `maxArtifacts`, the most artifacts kept: past either a
   * protocol error, so a hostile agent cannot grow the client's memory.
   */
  constructor(
    private readonly maxChars: number,
    private readonly maxArtifacts = Number.POSITIVE_INFINITY,
  ) {}

  /** The reply: non-partial, non-empty artifact texts in arrival order. */
  text(): string {
    let reply = '';
    for (const entry of this.artifacts.values()) {
      if (entry.partial || entry.text === '') continue;
      reply = reply === '' ? entry.text : reply + ARTIFACT_SEPARATOR + entry.text;
    }
    return reply;
  }

  /** A task snapshot's artifacts replace all that is known. */
  snapshot(artifacts: readonly Artifact[], out: TextOut): void {
    const before = this.text();
    this.artifacts.clear();
    this.last = undefined;
    this.checkCount(artifacts.length);
    for (const artifact of artifacts) {
      const entry = { text: textOf(artifact.parts), partial: isPartial(artifact.metadata) };
      this.artifacts.set(artifact.artifactId, entry);
      this.last = entry;
    }
    this.showChange(before, out);
  }

  /**
   * One artifact-update. A partial (delta) chunk is a preview of text that a non-partial event
   * repeats whole: it is returned for the preview and kept out of the reply, whatever `append` says.
   */
  chunk(artifact: Artifact, append: boolean, partial: boolean, out: TextOut): string | undefined {
    const chunk = textOf(artifact.parts);
    const known = this.artifacts.get(artifact.artifactId);
    if (partial) {
      const before = known && !known.partial ? this.text() : undefined;
      if (known === undefined) this.checkCount(this.artifacts.size + 1);
      const entry = { text: '', partial: true };
      this.artifacts.set(artifact.artifactId, entry);
      // A new id goes last in the map: the fast paths must know an empty artifact is no longer last.
      if (known === undefined || known === this.last) this.last = entry;
      if (before !== undefined) this.showChange(before, out);
      return chunk;
    }
    if (known === undefined) {
      this.checkCount(this.artifacts.size + 1);
      const entry = { text: chunk, partial: false };
      this.artifacts.set(artifact.artifactId, entry);
      this.last = entry;
      if (chunk !== '') this.startTail(entry, chunk, out);
      return undefined;
    }
    const wasPartial = known.partial;
    known.partial = false;
    if (append && !wasPartial) {
      if (chunk === '') return undefined;
      if (known === this.tail) {
        known.text = (known.rope ??= new TextRope()).append(known.text, chunk);
        this.extend(chunk, out);
        return undefined;
      }
      if (known.text === '' && known === this.last) {
        known.text = chunk;
        this.startTail(known, chunk, out);
        return undefined;
      }
    }
    const before = this.text();
    known.text = append ? known.text + chunk : chunk;
    this.showChange(before, out);
    return undefined;
  }

  /** Shows `text` as the reply, when no artifact carries any (a status-only agent's answer). */
  showInstead(text: string, out: TextOut): void {
    if (text !== '') this.extend(text, out);
  }

  /** Refuses text past the size bound with a protocol error (the turn then ends, and the task is cancelled). */
  checkLength(length: number): number {
    if (length > this.maxChars) {
      throw new A2AError({ kind: 'protocol', operation: 'turn', message: `the agent's reply is longer than ${this.maxChars} characters` });
    }
    return length;
  }

  private checkCount(count: number): void {
    if (count > this.maxArtifacts) {
      throw new A2AError({
        kind: 'protocol',
        operation: 'turn',
        message: `the agent sent more than ${this.maxArtifacts} artifacts (maxArtifacts)`,
      });
    }
  }

  /** A new last artifact extends the reply, after a separator when text precedes it. */
  private startTail(entry: ArtifactText, chunk: string, out: TextOut): void {
    this.tail = entry;
    this.extend(this.shownLength === 0 ? chunk : ARTIFACT_SEPARATOR + chunk, out);
  }

  private extend(delta: string, out: TextOut): void {
    this.shownLength = this.checkLength(this.shownLength + delta.length);
    out.push({ type: 'text', text: delta, replace: false });
  }

  /** After the artifacts changed from giving `before`: shows nothing, an append, or a replace. */
  private showChange(before: string, out: TextOut): void {
    this.tail = this.lastNonEmpty();
    const next = this.text();
    if (next === before) return;
    if (next.startsWith(before)) return this.extend(next.slice(before.length), out);
    this.shownLength = this.checkLength(next.length);
    out.push({ type: 'text', text: next, replace: true });
  }

  private lastNonEmpty(): ArtifactText | undefined {
    let found: ArtifactText | undefined;
    for (const entry of this.artifacts.values()) if (!entry.partial && entry.text !== '') found = entry;
    return found;
  }
}
