/** What the client knows of an agent card: the summary the ladder and the CLI read, its extensions, its signatures' verdict, its security schemes. */
import type { CardSignature, SignatureProblem } from '../card-signature.js';

export type { CardSignature, SignatureProblem };

/** The few facts of a resolved agent card that the ladder and the CLI need. */
export interface CardSummary {
  /** The agent's name. */
  name: string;
  /** Whether the chosen interface allows `SendStreamingMessage`. */
  streaming: boolean;
  /**
   * Whether the card offers push notifications (`capabilities.pushNotifications`): the SDK ports refuse
   * push-config calls to an agent whose card says no, before anything is sent. A port of your own may
   * leave it out (unknown: the calls go, and the agent says).
   */
  pushNotifications?: boolean;
  /** The protocol version of the chosen interface, e.g. `1.0` or `0.3`. */
  protocolVersion: string;
  /** The chosen binding, e.g. `JSONRPC` or `HTTP+JSON`. */
  transport: string;
  /** The URL of the chosen interface (without any credentials it carried). */
  url: string;
  /**
   * Every interface the card offers, in the card's order, the chosen one among them (`chosen`): what a
   * caller can pick instead when the chosen one cannot be reached. The SDK ports set it; a port of
   * your own may leave it out.
   */
  interfaces?: CardInterface[];
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

/** One interface a card offers (A2A's `AgentInterface`, as the card lists it). */
export interface CardInterface {
  /** Its protocol binding as the card names it, e.g. `JSONRPC`, `HTTP+JSON` or `GRPC`. */
  binding: string;
  /** Its URL (a gRPC interface's `host:port`) as the card gives it, without any credentials it carried. */
  url: string;
  /** Its protocol version, e.g. `1.0` or `0.3`. */
  protocolVersion: string;
  /** The interface the client calls. */
  chosen: boolean;
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
  /** oauth2: the device authorization endpoint of its device code flow (RFC 8628), when it has one. */
  deviceAuthorizationUrl?: string;
  /** oauth2: the token URL of its device code flow, when it has one. */
  deviceTokenUrl?: string;
  /** oauth2, openIdConnect: the scopes the card's first security requirement naming any asks of it. */
  scopes?: string[];
  /** oauth2 (RFC 8414 metadata) or openIdConnect (discovery): where the provider describes itself. */
  metadataUrl?: string;
  /** The scheme's description on the card. */
  description?: string;
}
