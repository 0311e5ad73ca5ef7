/**
 * `a4h-a2a`: the browser-safe core. A turn is a cold Observable of events over an {@link a4h-a2a#A2APort};
 * this entry imports no Node built-in.
 *
 * @packageDocumentation
 */
export { A2AError, isA2AError, toA2AError } from './errors.js';
export type { A2AErrorInit, A2AErrorKind, A2AOperation, AuthDetails, TimeoutPhase } from './errors.js';
export { silentLogger } from './logger.js';
export type { Logger } from './logger.js';
export type { A2APort, Caller, ListTasksOptions, PortFactory, PortTurn, TaskPage, GenerationWait } from './port/port.js';
export { createSdkPorts } from './sdk/ports.js';
export type {
  AgentReachOptions,
  BindingsOption,
  GrpcSupport,
  InterfaceOrder,
  ProtocolBinding,
  SdkPortOptions,
  SdkPorts,
} from './sdk/ports.js';
export { traceparentOf } from './telemetry/traceparent.js';
export type {
  A2ATelemetry,
  TelemetryAttributes,
  TelemetryCounter,
  TelemetryHistogram,
  TelemetryMeter,
  TelemetrySpan,
  TelemetrySpanContext,
  TelemetryTracer,
} from './telemetry/types.js';
export type { TracedOutcome } from './telemetry/turn.js';
export type {
  AgentCredentials,
  ApiKeyCredential,
  CredentialHeaders,
  CredentialsCall,
  CredentialsFunction,
  CredentialsOption,
} from './sdk/http/credentials/options.js';
export type { OAuthClientCredentials } from './sdk/http/credentials/oauth/options.js';
export type { TrustOption } from './sdk/agent/trust/options.js';
export type { Jwk, Jwks } from './sdk/agent/trust/jwks.js';
export type { ExtensionsOption } from './port/extensions.js';
export { missingExtensions } from './sdk/http/extensions/required.js';
export { cardUrlOf } from './port/card-url.js';
export { isInterrupted, isSettled, isTerminal } from './port/types.js';
export type { CardExtension, CardInterface, CardSignature, CardSummary, SecuritySchemeInfo, SignatureProblem } from './port/card.js';
export type {
  AgentEvent,
  AgentMessage,
  Artifact,
  DataPart,
  Elicitation,
  FilePart,
  OutgoingData,
  OutgoingFile,
  OutgoingMessage,
  OutgoingPart,
  Part,
  Role,
  SendResult,
  Task,
  TaskState,
  TaskStatus,
  TextPart,
} from './port/types.js';
export { CONTEXT_ID_DOMAIN, deriveContextId, isContextIdShape } from './identity/context-id.js';
export { createA2A } from './client/create-a2a.js';
export { answerTo } from './client/answer.js';
export { surfaceAction } from './client/surface-action.js';
export type { SurfaceActionAnswer, SurfaceActionInput } from './client/surface-action.js';
export type { A2UIOption } from './port/a2ui-option.js';
export type { InterruptAnswer, InterruptReply } from './client/answer.js';
export type {
  A2AClient,
  A2AOptions,
  CancelInput,
  CloseOptions,
  HistoryInput,
  LeaveMode,
  ResumeInput,
  SurfaceOrigin,
  TurnInput,
} from './client/create-a2a.js';
export type { AgentLimits, AgentLimitsOption } from './client/agent-limit-option.js';
export type { ThreadMemory } from './identity/threads.js';
export type { A2UIMessage, A2UIMessageKind, A2UIRefusal, SurfaceView } from './port/a2ui.js';
export { A2UI_MEDIA_TYPE, A2UI_MEDIA_TYPE_SDK, isA2UIPart } from './render/a2ui/wire.js';
export { runResume, runTurn } from './turn/turn.js';
export { afterDelivered, formatPosition, parsePosition, positionAfter } from './render/position.js';
export type { ReplyPosition } from './render/position.js';
export type { LadderOptions, ResumeRequest, TurnRequest } from './turn/turn.js';
export { resumeThread } from './turn/resume.js';
export { DEFAULT_HISTORY_BYTES, DEFAULT_HISTORY_LIMIT, threadHistory } from './turn/thread/thread-history.js';
export type { ThreadHistoryOptions } from './turn/thread/thread-history.js';
export type { HistoryExchange, HistoryPage } from './port/history.js';
export type { ThreadResumeBounds } from './turn/resume.js';
export type {
  ActivityEvent,
  Attachment,
  AttachmentEvent,
  AuthRequiredEvent,
  DataAttachment,
  FileAttachment,
  Interrupt,
  LadderNote,
  ContextAdoptedEvent,
  QueuedEvent,
  ContextRefusedEvent,
  EndEvent,
  TurnErrorEvent,
  FallbackEvent,
  PollingEvent,
  PushNoteEvent,
  ReconnectingEvent,
  StartEvent,
  StatusEvent,
  SurfaceEvent,
  SurfaceRefusedEvent,
  TaskEvent,
  TaskGoneEvent,
  ReconcileEvent,
  ReplyMissing,
  RequestEvent,
  TextEvent,
  TurnEvent,
  TurnOutcome,
  Usage,
  UsageCost,
  UsageEvent,
  UsageJson,
  UsageScope,
  UserMessage,
} from './port/events.js';
export { sumUsage } from './render/usage.js';
export { backoffDelay, DEFAULT_POLICY, resolvePolicy } from './turn/policy.js';
export type { Backoff, TurnPolicy, TurnPolicyInput } from './turn/policy.js';
export { catchTurnError, initialTurnView, reduceTurn, turnState } from './render/view.js';
export { platformEdits, splitReply } from './render/platform.js';
export type { PlatformEdit, PlatformLimits } from './render/platform.js';
export { coalesceViews } from './rx/coalesce-views.js';
export { protocolMessage, protocolSendResponse, protocolStreamResponse, protocolTask, WIRE_STATES } from './render/protocol.js';
export type { ProtocolJson } from './render/protocol.js';
export type { CoalesceOptions } from './render/coalesce.js';
export type { TurnView } from './render/view.js';
export { emptyTranscript, reduceTranscript, threadTranscript } from './render/transcript.js';
export type { Transcript, TranscriptTurn } from './render/transcript.js';

// What `a4h` does, a script can do: task verbs over a port, push-notification configs, the checks a
// message goes through, the decorator base of a port, the card's path, OAuth's bounded requests.
export { followTask } from './turn/task/follow-task.js';
export type { FollowReconnect } from './turn/task/follow-task.js';
export { waitForTask } from './turn/task/wait-task.js';
export type { TaskWait } from './turn/task/wait-task.js';
export { within } from './turn/within.js';
export { listTasksOf } from './port/port.js';
export { pushConfigsOf } from './port/push-configs.js';
export type { NewPushConfig, PushAuthentication, PushConfig, PushConfigPage, PushConfigPort } from './port/push-configs.js';
export { ForwardingPort } from './port/forwarding.js';
export { createPushReceiver } from './push/receiver.js';
export type { PushAnswer, PushOutcome, PushReceiver, PushReceiverOptions, PushRequest, PushStats, UnclaimedPush } from './push/receiver.js';
export { DEFAULT_PUSH_TOKEN_MAX_AGE_MS, PUSH_TOKEN_DOMAIN, pushCredentials } from './push/credential.js';
export type { PushCredentialOptions, PushCredentials } from './push/credential.js';
export type { PushDelivery, PushSource, PushTarget, PushWhen } from './port/push.js';
export { checkRequest } from './turn/request.js';
export { checkInputModes, outgoingData, outgoingFiles } from './port/outgoing.js';
export { checkExtensionUris } from './port/extensions.js';
export { CARD_PATH, redactQuery } from './port/card-url.js';
export { describeScheme } from './sdk/http/credentials/security.js';
export { networkCause } from './network-cause.js';
export { MAX_TIMER_MS } from './turn/policy.js';
export { checkIdentitySecret } from './identity/context-id.js';
export { CancelsInFlight } from './client/cancels.js';
export { requestToken, tokenUrlProblem } from './sdk/http/credentials/oauth/token-request.js';
export type { AccessToken, TokenRequest } from './sdk/http/credentials/oauth/token-request.js';
export { postToEndpoint } from './sdk/http/credentials/oauth/endpoint-post.js';
export type { EndpointAnswer, EndpointPost } from './sdk/http/credentials/oauth/endpoint-post.js';
