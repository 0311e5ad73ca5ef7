import type { CallInterceptor } from '@a2a-js/sdk/client';
import { A2AError } from '../../../../errors.js';
import type { CredentialPlan } from '../../../http/credentials/plan.js';
import type { GrpcAddress } from './address.js';
import { callOf, noteRenewal } from '../../../http/credentials/callers.js';

/** A gRPC metadata key (lower case; `-bin` keys carry bytes, never a credential). */
const KEY = /^[0-9a-z_.-]+$/;
/** A gRPC metadata text value: printable ASCII. */
const VALUE = /^[\x20-\x7e]*$/;

/**
 * The agent's credentials as gRPC metadata on every call (the SDK writes a call's service
 * parameters into its metadata): the plan's headers, fresh per call for a function (made for the
 * call's caller; an UNAUTHENTICATED call is made once more with fresh ones, see `renewAfterRefusal`), checked first
 * so that nothing @grpc/grpc-js would refuse (and quote) reaches it. An API key the card places in
 * the query cannot go over gRPC: that call fails with an `auth` error, as a header that is no
 * metadata does; no error names a value.
 */
export function credentialsAsMetadata(plan: CredentialPlan, address: GrpcAddress): CallInterceptor {
  const base = `${address.origin}/`;
  return {
    before: async (args) => {
      const signal = args.options?.signal;
      const applied = await plan.apply(base, callOf(signal));
      noteRenewal(signal, () => {
        plan.refused(applied);
        return plan.renewable;
      });
      if (applied.url !== base) throw refused(plan, 'an API key in the query cannot go over gRPC (give apiKey.in "header")');
      const metadata: Record<string, string> = {};
      for (const [name, value] of Object.entries(applied.headers)) {
        const key = name.toLowerCase();
        if (!KEY.test(key) || key.endsWith('-bin')) throw refused(plan, `the header ${JSON.stringify(name)} is no gRPC metadata key`);
        if (!VALUE.test(value)) throw refused(plan, `the value of ${JSON.stringify(name)} is not printable ASCII`);
        metadata[key] = value;
      }
      const options = (args.options ??= {});
      options.serviceParameters = { ...options.serviceParameters, ...metadata };
    },
    after: async () => undefined,
  };
}

function refused(plan: CredentialPlan, why: string): A2AError {
  return new A2AError({ kind: 'auth', auth: { sent: 'none' }, message: `the credentials (${plan.description}) cannot be sent: ${why}` });
}
