import type { SecuritySchemeInfo } from '../../../port/card.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
/** A card's string, bounded (cards are untrusted input). */
const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value.slice(0, 500) : undefined);

/** An RFC 6749 §3.3 scope token, bounded. */
export const SCOPE = /^[\x21\x23-\x5b\x5d-\x7e]{1,200}$/;

/** The most schemes read from one card. */
const MAX_SCHEMES = 50;

/** v1.0 ProtoJSON member names of the `SecurityScheme` oneof, and the type each stands for. */
const V1_MEMBERS: Record<string, SecuritySchemeInfo['type']> = {
  apiKeySecurityScheme: 'apiKey',
  httpAuthSecurityScheme: 'http',
  oauth2SecurityScheme: 'oauth2',
  openIdConnectSecurityScheme: 'openIdConnect',
  mtlsSecurityScheme: 'mutualTLS',
};

const V03_TYPES: Record<string, SecuritySchemeInfo['type']> = {
  apiKey: 'apiKey',
  http: 'http',
  oauth2: 'oauth2',
  openIdConnect: 'openIdConnect',
  mutualTLS: 'mutualTLS',
};

/**
 * The security schemes a card declares, read from either shape: v1.0's ProtoJSON
 * (`{"apiKeySecurityScheme":{"location":"header","name":"X-API-Key"}}`, `securityRequirements`) and
 * v0.3's OpenAPI style (`{"type":"apiKey","in":"header","name":"X-API-Key"}`, `security`). Required
 * ones (named by a requirement) come first. Anything unreadable is `unknown`, never an error: the
 * card is still usable without credentials.
 */
export function securitySchemesOf(card: Json): SecuritySchemeInfo[] {
  const declared = card['securitySchemes'];
  if (!isObject(declared)) return [];
  const required = requirements(card);
  const schemes = Object.entries(declared)
    .slice(0, MAX_SCHEMES)
    .map(([name, value]) => withScopes(schemeOf(name.slice(0, 200), value, required.has(name)), required.get(name)));
  return [...schemes.filter((s) => s.required), ...schemes.filter((s) => !s.required)];
}

function schemeOf(name: string, value: unknown, required: boolean): SecuritySchemeInfo {
  const info: SecuritySchemeInfo = { name, type: 'unknown', required };
  if (!isObject(value)) return info;
  const member = Object.keys(V1_MEMBERS).find((key) => isObject(value[key]));
  const body = member === undefined ? value : (value[member] as Json);
  info.type = member === undefined ? (V03_TYPES[String(value['type'])] ?? 'unknown') : V1_MEMBERS[member]!;
  const description = str(body['description']);
  if (description) info.description = description;
  switch (info.type) {
    case 'apiKey': {
      const where = String(body['location'] ?? body['in'] ?? '').toLowerCase();
      if (where === 'header' || where === 'query' || where === 'cookie') info.in = where;
      const paramName = str(body['name']);
      if (paramName) info.paramName = paramName;
      break;
    }
    case 'http': {
      const scheme = str(body['scheme']);
      if (scheme) info.scheme = scheme;
      break;
    }
    case 'oauth2': {
      const flows = isObject(body['flows']) ? body['flows'] : {};
      const clientCredentials = flows['clientCredentials'] ?? flows['client_credentials'];
      const tokenUrl = isObject(clientCredentials) ? str(clientCredentials['tokenUrl']) : undefined;
      if (tokenUrl) info.tokenUrl = tokenUrl;
      const device = flows['deviceCode'] ?? flows['device_code'];
      const deviceUrl = isObject(device) ? str(device['deviceAuthorizationUrl']) : undefined;
      const deviceTokenUrl = isObject(device) ? str(device['tokenUrl']) : undefined;
      if (deviceUrl) info.deviceAuthorizationUrl = deviceUrl;
      if (deviceTokenUrl) info.deviceTokenUrl = deviceTokenUrl;
      const metadataUrl = str(body['oauth2MetadataUrl']);
      if (metadataUrl) info.metadataUrl = metadataUrl;
      break;
    }
    case 'openIdConnect': {
      const metadataUrl = str(body['openIdConnectUrl']);
      if (metadataUrl) info.metadataUrl = metadataUrl;
      break;
    }
    default:
      break;
  }
  return info;
}

/** The most scopes read for one scheme, and the longest scope kept. */
const MAX_SCOPES = 50;

/** An OAuth scheme's scopes, when its requirements name any (other types take none). */
function withScopes(info: SecuritySchemeInfo, scopes: string[] | undefined): SecuritySchemeInfo {
  if (scopes?.length && (info.type === 'oauth2' || info.type === 'openIdConnect')) info.scopes = scopes;
  return info;
}

/**
 * The scheme names the card's requirements list, each with the scopes the first requirement naming
 * any asks of it: v1.0 `securityRequirements[].schemes` (`{ name: { list: [scopes] } }`), v0.3
 * `security[]` (`{ name: [scopes] }`).
 */
function requirements(card: Json): Map<string, string[]> {
  const names = new Map<string, string[]>();
  const v1 = card['securityRequirements'];
  if (Array.isArray(v1)) for (const entry of v1) if (isObject(entry) && isObject(entry['schemes'])) addKeys(names, entry['schemes']);
  const v03 = card['security'];
  if (Array.isArray(v03)) for (const entry of v03) if (isObject(entry)) addKeys(names, entry);
  return names;
}

function addKeys(names: Map<string, string[]>, record: Json): void {
  for (const [key, value] of Object.entries(record).slice(0, MAX_SCHEMES)) {
    const list = Array.isArray(value) ? value : isObject(value) && Array.isArray(value['list']) ? value['list'] : [];
    const scopes = list.filter((s): s is string => typeof s === 'string' && SCOPE.test(s)).slice(0, MAX_SCOPES);
    if (!names.get(key)?.length) names.set(key, scopes);
  }
}

/** A scheme as messages name it: `bearerAuth (HTTP Bearer)`, `key (API key in header X-API-Key)`. */
export function describeScheme(scheme: SecuritySchemeInfo): string {
  const what = ((): string => {
    switch (scheme.type) {
      case 'apiKey':
        return `API key${scheme.in ? ` in ${scheme.in}` : ''}${scheme.paramName ? ` ${scheme.paramName}` : ''}`;
      case 'http':
        return `HTTP ${scheme.scheme ?? 'authentication'}`;
      case 'oauth2':
        return 'OAuth 2.0';
      case 'openIdConnect':
        return 'OpenID Connect';
      case 'mutualTLS':
        return 'mutual TLS';
      default:
        return 'unknown type';
    }
  })();
  return `${scheme.name} (${what}${scheme.required ? ', required' : ''})`;
}
