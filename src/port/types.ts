/**
 * The domain types the ladder works with. The SDK adapter maps its own types into these, so the
 * ladder, the renderer and the tests never see SDK shapes (v1.0 and v0.3 look the same here).
 */

/** A task's state, lowercase as in A2A v0.3 (v1.0's `TASK_STATE_WORKING` maps to `working`). */
export type TaskState =
  'submitted' | 'working' | 'input-required' | 'auth-required' | 'completed' | 'failed' | 'canceled' | 'rejected' | 'unknown';

/** Who sent a message. */
export type Role = 'user' | 'agent';

/**
 * One part of a message or artifact. Text parts become reply text; file and data parts become
 * attachments (or, for framework records such as ADK tool calls, activity).
 */
export type Part = TextPart | DataPart | FilePart;

/** Plain text. */
export interface TextPart {
  /** Discriminant. */
  kind: 'text';
  /** The text. */
  text: string;
  /** The part's metadata, as the agent sent it. */
  metadata?: Record<string, unknown>;
}

/** Structured data: any JSON value, with its media type when the agent named one (v1.0 only). */
export interface DataPart {
  /** Discriminant. */
  kind: 'data';
  /** The JSON value. */
  data: unknown;
  /** Its media type, when the agent named one. */
  mediaType?: string;
  /** The part's metadata, as the agent sent it. */
  metadata?: Record<string, unknown>;
}

/**
 * A file: its bytes (v1.0 `raw`, v0.3 `file.bytes`, decoded once from base64 by the mapping, never
 * copied afterwards) or a URI (v1.0 `url`, v0.3 `file.uri`), with its name and media type.
 */
export interface FilePart {
  /** Discriminant. */
  kind: 'file';
  /** The file's media type, when named. */
  mediaType?: string;
  /** The file's name, when named. */
  name?: string;
  /** Where to fetch the file, when it came by URI. */
  uri?: string;
  /** The file's content, when it came inline. */
  bytes?: Uint8Array;
  /** The part's metadata, as the agent sent it. */
  metadata?: Record<string, unknown>;
}

/** A message of the conversation, the agent's or the user's. */
export interface AgentMessage {
  /** Who sent it. */
  role: Role;
  /** Its content, in order. */
  parts: Part[];
  /** Its id, when it has one. */
  messageId?: string;
  /** The conversation it belongs to, when named. */
  contextId?: string;
  /** The task it belongs to, when named. */
  taskId?: string;
  /** The message's metadata, as sent. */
  metadata?: Record<string, unknown>;
}

/** A task's state and the message that came with it. */
export interface TaskStatus {
  /** The state. */
  state: TaskState;
  /** The agent's status message (progress text, a question, the final answer), when any. */
  message?: AgentMessage;
}

/** An output of a task (the reply, a file): parts that may come in chunks. */
export interface Artifact {
  /** Its id within the task; chunks of one artifact share it. */
  artifactId: string;
  /** Its name, when the agent gave one. */
  name?: string;
  /** Its content, in order. */
  parts: Part[];
  /** The artifact's metadata, as the agent sent it. */
  metadata?: Record<string, unknown>;
}

/** A task as the agent reports it in a snapshot (SendMessage, GetTask, ListTasks). */
export interface Task {
  /** The task's id. */
  id: string;
  /** The conversation it belongs to, when named. */
  contextId?: string;
  /** Its current state. */
  status: TaskStatus;
  /** Its outputs so far. */
  artifacts: Artifact[];
  /** The messages of the task, when the agent sent them. */
  history?: AgentMessage[];
  /** The task's metadata, as the agent sent it. */
  metadata?: Record<string, unknown>;
}

/** What an agent sends: a task snapshot, a message, a status update or an artifact chunk. */
export type AgentEvent =
  | { kind: 'task'; task: Task }
  | { kind: 'message'; message: AgentMessage }
  /**
   * Only a sign of life on a stream: an SSE comment (`: ping`) or bytes that completed no event yet.
   * It keeps the idle and first-event clocks from running out and carries nothing else.
   */
  | { kind: 'alive' }
  | {
      kind: 'status';
      /** '' when the agent named no task: the turn's own task. */
      taskId: string;
      contextId?: string;
      status: TaskStatus;
      metadata?: Record<string, unknown>;
    }
  | {
      kind: 'artifact';
      /** '' when the agent named no task: the turn's own task. */
      taskId: string;
      contextId?: string;
      artifact: Artifact;
      /** Append the parts to the artifact with this id; absent/false on a known id replaces it. */
      append: boolean;
      /** This chunk closes the artifact. */
      lastChunk: boolean;
      metadata?: Record<string, unknown>;
    };

/** What a blocking send answers: a task (maybe still working) or a single message. */
export type SendResult = Extract<AgentEvent, { kind: 'task' } | { kind: 'message' }>;

/** The few facts of a resolved agent card that the ladder and the CLI need. */
export interface CardSummary {
  /** The agent's name. */
  name: string;
  /** Whether the chosen interface allows `SendStreamingMessage`. */
  streaming: boolean;
  /** The protocol version of the chosen interface, e.g. `1.0` or `0.3`. */
  protocolVersion: string;
  /** The chosen binding, e.g. `JSONRPC` or `HTTP+JSON`. */
  transport: string;
  /** The URL of the chosen interface (without any credentials it carried). */
  url: string;
  /** The tenant of the chosen interface (v1.0), when it names one. */
  tenant?: string;
  /** The agent's description. */
  description?: string;
  /** The agent's skills as the card lists them. */
  skills?: { id: string; name: string; description?: string; inputModes?: string[] }[];
  /** The media types the agent takes by default (a skill may take more: its `inputModes`). */
  defaultInputModes?: string[];
  /** The media types the agent answers in by default. */
  defaultOutputModes?: string[];
  /** The security schemes the card declares (none when it declares none). */
  securitySchemes?: SecuritySchemeInfo[];
  /** What kind of credential the client sends to the chosen interface (never a value), when any. */
  credentials?: string;
  /** The summary comes from the agent's authenticated extended card, fetched with the credentials. */
  extended?: boolean;
  /**
   * The verdict on the signatures of the agent's (public) card, against the keys the client trusts
   * (the `trust` option). Set by the SDK ports for every card; a port of your own may leave it out.
   */
  signature?: CardSignature;
  /** The extensions the card declares (`capabilities.extensions`), when it declares any. */
  extensions?: CardExtension[];
}

/** One extension a card declares: a turn that does not activate a `required` one is refused before anything is sent. */
export interface CardExtension {
  /** What identifies the extension, and what a call sends in `A2A-Extensions` to activate it. */
  uri: string;
  /** What the card says it does. */
  description?: string;
  /** The agent requires clients to activate it. */
  required: boolean;
  /** The extension's own configuration, as the card gives it. */
  params?: Record<string, unknown>;
}

/**
 * What the client found of an agent card's signatures (A2A §8.4: JWS over the RFC 8785 canonical card):
 *
 * - `verified`: a signature verified with a trusted key, `kid`; `jwksUrl` when that key came from a
 *   trusted JWKS URL (absent for a key given inline);
 * - `unsigned`: the card carries no signature;
 * - `unchecked`: the card is signed, but it was not checked: no keys are trusted (no `trust` option; no
 *   `reason`), or the keys it needs could not be had in time (`reason` `keys-unavailable`: a trusted JWKS
 *   URL failed, redirected to another origin, or did not answer; `detail` in words);
 * - `invalid`: no signature verified; `reason` says why (for the one that came closest), `detail` in words.
 */
export type CardSignature =
  | { state: 'verified'; kid: string; jwksUrl?: string }
  | { state: 'unsigned' }
  | { state: 'unchecked'; reason?: Extract<SignatureProblem, 'keys-unavailable'>; detail?: string }
  | { state: 'invalid'; reason: SignatureProblem; detail: string };

/**
 * Why a card's signature did not verify:
 *
 * - `unknown-key`: no trusted key has the signature's `kid`;
 * - `untrusted-jku`: the signature points to a JWKS (`jku`) that is not a trusted JWKS URL, and no trusted key has its `kid`;
 * - `keys-unavailable`: a trusted JWKS URL could not be fetched or read (the verdict is then `unchecked`, not `invalid`);
 * - `expired-key`: the key's `exp` (in its JWK), or the signature's own `exp` (in its protected header), has passed;
 * - `bad-signature`: the key is trusted but the signature does not match the card (changed after signing), or its algorithm is not accepted;
 * - `malformed`: the signature is not a JWS this client can read (its protected header is not JSON, or lacks `alg`, `kid` or `typ`).
 */
export type SignatureProblem = 'unknown-key' | 'untrusted-jku' | 'keys-unavailable' | 'expired-key' | 'bad-signature' | 'malformed';

/** One security scheme of a card (v1.0 `securitySchemes` or the v0.3 OpenAPI-style ones), without secrets (cards carry none). */
export interface SecuritySchemeInfo {
  /** Its name on the card (the key in `securitySchemes`). */
  name: string;
  /** The scheme's type; `unknown` for one this client does not know. */
  type: 'apiKey' | 'http' | 'oauth2' | 'openIdConnect' | 'mutualTLS' | 'unknown';
  /** Listed in the card's security requirements (`securityRequirements`, v0.3 `security`). */
  required: boolean;
  /** apiKey: where the key goes. */
  in?: 'header' | 'query' | 'cookie';
  /** apiKey: the header, query parameter or cookie name. */
  paramName?: string;
  /** http: the authentication scheme, e.g. `Bearer` or `Basic`. */
  scheme?: string;
  /** oauth2: the token URL of its client-credentials flow, when it has one. */
  tokenUrl?: string;
  /** oauth2 (RFC 8414 metadata) or openIdConnect (discovery): where the provider describes itself. */
  metadataUrl?: string;
  /** The scheme's description on the card. */
  description?: string;
}

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

/** Structured data the user sends (a data part): any JSON value; its media type defaults to `application/json`. */
export interface OutgoingData {
  /** Any JSON value. */
  data: unknown;
  /** Default `application/json`. */
  mediaType?: string;
}

/** What the ladder asks the port to send: the text and the thread's ids. The port adds a fresh messageId. */
export interface OutgoingMessage {
  /** The text part; may be empty when files or data go. */
  text: string;
  /** File parts after the text part. */
  files?: readonly OutgoingFile[];
  /** Data parts after the files. */
  data?: readonly OutgoingData[];
  /** The thread's contextId. */
  contextId?: string;
  /** Set to continue an interrupted task (input-required, auth-required). */
  taskId?: string;
  /** The message's id; a fresh one when absent. */
  messageId?: string;
}

const TERMINAL: ReadonlySet<TaskState> = new Set(['completed', 'failed', 'canceled', 'rejected']);
const INTERRUPTED: ReadonlySet<TaskState> = new Set(['input-required', 'auth-required']);

/** COMPLETED, FAILED, CANCELED or REJECTED: the task will not change again. */
export function isTerminal(state: TaskState | undefined): boolean {
  return state !== undefined && TERMINAL.has(state);
}

/** INPUT_REQUIRED or AUTH_REQUIRED: the task waits for the user. */
export function isInterrupted(state: TaskState | undefined): boolean {
  return state !== undefined && INTERRUPTED.has(state);
}

/**
 * Terminal or INPUT_REQUIRED: a task stream has nothing more to say in this state (the agent waits for
 * the next message or is done). AUTH_REQUIRED is not one: the agent may resume once the user signs in.
 */
export function endsStream(state: TaskState | undefined): boolean {
  return isTerminal(state) || state === 'input-required';
}

/** Terminal or interrupted: the turn can end here, and nothing needs cancelling. */
export function isSettled(state: TaskState | undefined): boolean {
  return isTerminal(state) || isInterrupted(state);
}
