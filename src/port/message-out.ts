/** The one shape of a user's message, from the caller's input to the port: its text, files, data and ids. */
import type { PushTarget } from './push-target.js';

/** A file the user sends: its bytes or a URI, with its media type (checked against the card's input modes) and name. */
export interface OutgoingFile {
  /** The file's media type. */
  mediaType: string;
  /** The file's name. */
  name?: string;
  /** The content, sent as v1.0 `raw` / v0.3 `file.bytes` (base64 on the wire). */
  bytes?: Uint8Array;
  /** Where the agent fetches the content (v1.0 `url` / v0.3 `file.uri`); exactly one of `bytes` and `uri`. */
  uri?: string;
}

/** One part of a message in the caller's order: a text (with its media type when the caller named one), a file or a data part. */
export type OutgoingPart =
  { kind: 'text'; text: string; mediaType?: string } | ({ kind: 'file' } & OutgoingFile) | ({ kind: 'data' } & OutgoingData);

/** Structured data the user sends (a data part): any JSON value; its media type defaults to `application/json`. */
export interface OutgoingData {
  /** Any JSON value. */
  data: unknown;
  /** Default `application/json`. */
  mediaType?: string;
  /** The part's metadata (A2UI's `mimeType`, say), sent as given. */
  metadata?: Record<string, unknown>;
}

/**
 * One user message, the one shape from the caller's input to the port: its text, files and data, the
 * thread's ids and its own id. The ladder checks it before it goes (`checkRequest`).
 */
export interface OutgoingMessage {
  /** The user's text; may be empty only when files or data go. */
  text: string;
  /** Files to send after the text (their media types must be ones the card takes). */
  files?: readonly OutgoingFile[];
  /** Data parts to send after the files. */
  data?: readonly OutgoingData[];
  /** The conversation's contextId (derived for a thread by the client). */
  contextId?: string;
  /** A task to continue (one the agent left input-required or auth-required). */
  taskId?: string;
  /**
   * The message's parts in the caller's order (texts, files and data interleaved, a text with its
   * media type), for a caller whose parts have an order of their own (`a4h send --text … --file …`).
   * When given, the wire carries exactly these, and the checks read the files and data among them:
   * `files` and `data` are not read, and `text` is only what the turn shows as the message (the texts
   * joined, say).
   */
  parts?: readonly OutgoingPart[];
  /**
   * A blocking send that does not wait: the agent answers at once with the task as it stands (v1.0
   * `returnImmediately`, v0.3 `blocking: false`), for a caller that follows the task later by its id
   * (`a4h send --async`). Only a port's `send` reads it; a turn waits whatever it says.
   */
  returnImmediately?: boolean;
  /**
   * Where the agent posts the task's updates (v1.0 `taskPushNotificationConfig`, v0.3
   * `pushNotificationConfig`): a push receiver's target, set by a turn that follows its task by push.
   */
  push?: PushTarget;
  /** A2A 1.1 (draft): the answer goes only if the task (`taskId`) is still at this generation (`end.generation`); else a `conflict`. */
  ifGenerationMatch?: number;
  /**
   * A2A 1.1 (draft, ADR-002): the agent's requests for input this message answers (`Elicitation.id`s),
   * a hint the agent may use; sent only to a 1.1 interface, on a message that continues a task (`taskId`).
   */
  elicitationIds?: readonly string[];
  /** The message's metadata (A2UI's client capabilities and data model, say), sent as given; a JSON object. */
  metadata?: Record<string, unknown>;
  /**
   * The message's id, when the caller chooses it (to ask the thread for the message after a crash,
   * see `resumeMessage`); a fresh UUID otherwise. Every send of the turn's message carries it (a
   * message the agent refused before any event goes again with the same id).
   */
  messageId?: string;
}
