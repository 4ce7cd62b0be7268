/**
 * The one reading of a refused call that every element shares, whatever its own codes (api.md
 * "Errors"): a wallet signature refused (WALLET_SIGNATURE_*, INVALID_SIGNATURE, REQUEST_ID_MISSING),
 * or a 401 with details (the proxy's `authorize`/`accountFor` refusal, `details.reason` AUTHORIZE:
 * the site's user not signed in; the sandbox's REQUEST_ID_* reasons on a signed leg), is a login to
 * ask for; a plain 401 UNAUTHORIZED (the only other 401 the service documents) is the proxy's API
 * credentials refused, a set-up to fix. A module of its own, so that an element with codes of its
 * own takes this rule without the rest of failures.ts.
 */
import type { ServiceError } from '../../core/errors.ts';

/** True for a code that names the wallet signature as refused. */
export const isSignatureCode = (code: string): boolean => code.startsWith('WALLET_SIGNATURE') || code === 'INVALID_SIGNATURE' || code === 'REQUEST_ID_MISSING';

/** What a 401 means in a step that gives it no meaning of its own: a login to ask for, or the page's set-up. */
export function unauthorizedCode({ code, details }: ServiceError): 'signature_rejected' | 'misconfigured' {
  return isSignatureCode(code) || details ? 'signature_rejected' : 'misconfigured';
}
