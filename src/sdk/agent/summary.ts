import type { AgentCard as SdkAgentCard, AgentInterface } from '@a2a-js/sdk';
import type { CardExtension, CardSummary } from '../../port/card.js';
import type { BindingAddress } from '../wire/bindings/binding.js';
import type { CheckedCard } from './card/schema.js';
import { securitySchemesOf } from '../http/credentials/security.js';

/** What the ladder and the CLI read of a card, on its chosen interface. */
export function cardSummary(
  normalized: SdkAgentCard,
  chosen: AgentInterface,
  protocolVersion: string,
  checked: CheckedCard,
  address: BindingAddress,
): CardSummary {
  const summary: CardSummary = {
    name: normalized.name,
    streaming: normalized.capabilities?.streaming === true,
    pushNotifications: normalized.capabilities?.pushNotifications === true,
    protocolVersion,
    transport: chosen.protocolBinding,
    url: address.shown,
    interfaces: (normalized.supportedInterfaces ?? []).map((offered) => ({
      binding: offered.protocolBinding,
      url: withoutCredentials(offered.url),
      protocolVersion: offered.protocolVersion || protocolVersion,
      chosen:
        offered === chosen ||
        (offered.url === chosen.url &&
          offered.protocolBinding === chosen.protocolBinding &&
          offered.protocolVersion === chosen.protocolVersion),
    })),
  };
  if (chosen.tenant) summary.tenant = chosen.tenant;
  if (normalized.description) summary.description = normalized.description;
  if (normalized.skills?.length) {
    summary.skills = normalized.skills.map((s) => ({
      id: s.id,
      name: s.name,
      ...(s.description ? { description: s.description } : {}),
      ...(s.inputModes?.length ? { inputModes: [...s.inputModes] } : {}),
    }));
  }
  if (normalized.defaultInputModes?.length) summary.defaultInputModes = [...normalized.defaultInputModes];
  if (normalized.defaultOutputModes?.length) summary.defaultOutputModes = [...normalized.defaultOutputModes];
  const schemes = securitySchemesOf(checked.card);
  if (schemes.length) summary.securitySchemes = schemes;
  const extensions = extensionsOf(checked);
  if (extensions.length) summary.extensions = extensions;
  return summary;
}

/** A URL without the user and password it may carry; anything that is not a URL (a gRPC `host:port`) as it is. */
function withoutCredentials(url: string): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  if (parsed.username === '' && parsed.password === '') return url;
  parsed.username = '';
  parsed.password = '';
  return parsed.href;
}

/** The extensions the card declares, as it declares them (the SDK's v0.3 translation is not needed for them: both shapes agree). */
function extensionsOf(checked: CheckedCard): CardExtension[] {
  return (checked.card.capabilities?.extensions ?? []).map((declared) => {
    const extension: CardExtension = { uri: declared.uri, required: declared.required === true };
    if (declared.description) extension.description = declared.description;
    const params = declared.params;
    if (typeof params === 'object' && params !== null && !Array.isArray(params)) extension.params = params as Record<string, unknown>;
    return extension;
  });
}
