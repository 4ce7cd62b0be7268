/**
 * One function per endpoint of spec/api.md and spec/reference.md that the library uses, plus the
 * proxy's own `POST {base}/webauthn/registration-options`. Each takes the transport (`send`,
 * http.ts `createHttp`) first; `createClient` (client.ts) binds them all into the WalletClient.
 * Answers are checked against the shape table of their resource (shapes.ts says how).
 * `revealCard` lives in cards.ts, so that <card-reveal> can load it without the others.
 *
 * Deliberately not here: HTTP itself and error mapping (http.ts), the signed retry
 * (signed-retry.ts), keys (session.ts). Errors never carry bodies, stamps, tokens or reveal URLs.
 */
import { WalletError } from './errors.ts';
import { answer, check, invalid, request, seg, valid, type Exchange, type Shape } from './shapes.ts';
import { REQUEST_ID_HEADER, sendSigned, type Send } from './signed-retry.ts';
import type { Stamper } from './stamp.ts';
import {
  AGENT_ACTION_STATUSES,
  CREDENTIAL_TYPES,
  DELEGATED_KEY_STATUSES,
  type AgentAction,
  type AgentActionList,
  type AuthMethod,
  type AuthMethodResponse,
  type AuthSession,
  type CreateCredentialRequest,
  type CreateDelegatedKeyRequest,
  type Customer,
  type DelegatedKey,
  type ExportResponse,
  type InternalAccount,
  type PasskeyAssertion,
  type PasskeyChallenge,
} from './types.ts';
import type {
  AgentCallOptions,
  CallOptions,
  IterateAgentActionsOptions,
  ListAgentActionsOptions,
  ListDelegatedKeysQuery,
  MaybeSignedCallOptions,
  SignedCallOptions,
} from './client.ts';
import type { PublicKeyCredentialCreationOptionsJSON } from './webauthn.ts';

// ---------------------------------------------------------------------------------------------
// Shapes of the resources (reference.md)

const METHOD_FIELDS = { accountId: 'string', credentialId: 'string?', nickname: 'string?', createdAt: 'string?', updatedAt: 'string?' } as const;
const AUTH_METHOD: Shape = { ...METHOD_FIELDS, id: 'AuthMethod:', type: CREDENTIAL_TYPES, otpEncryptionTargetBundle: 'string?' };
const SESSION: Shape = { ...METHOD_FIELDS, id: 'Session:', type: CREDENTIAL_TYPES, expiresAt: 'date', encryptedSessionSigningKey: 'string?' };
const PASSKEY_CHALLENGE: Shape = {
  ...METHOD_FIELDS,
  id: 'string',
  type: 'string',
  credentialId: 'string',
  challenge: /^[0-9a-f]+$/,
  requestId: 'Request:',
  expiresAt: 'string',
};
const DELEGATED_KEY: Shape = {
  id: 'DelegatedKey:',
  cardId: 'string',
  fundingSourceId: 'string',
  accountId: 'string',
  publicKey: 'string',
  nickname: 'string',
  status: DELEGATED_KEY_STATUSES,
  spendingLimits: 'array?',
  createdAt: 'string?',
  updatedAt: 'string?',
};
const AGENT_ACTION: Shape = {
  id: 'AgentAction:',
  agentId: 'string?',
  customerId: 'string?',
  status: AGENT_ACTION_STATUSES,
  type: 'string',
  createdAt: 'string?',
  updatedAt: 'string?',
  quote: 'object?',
  transferDetails: 'object?',
  transaction: 'object?',
  rejectionReason: 'string?',
};

const asAuthMethod = (v: unknown, what = 'credential') => check<AuthMethodResponse>(v, AUTH_METHOD, what);
const asSession = (v: unknown, what = 'session') => check<AuthSession>(v, SESSION, what);
const asDelegatedKey = (v: unknown) => check<DelegatedKey>(v, DELEGATED_KEY, 'delegated key');
const asAgentAction = (v: unknown) => check<AgentAction>(v, AGENT_ACTION, 'agent action');
const asList = <T>(v: unknown, item: (x: unknown) => T, what: string): T[] => check<{ data: unknown[] }>(v, { data: 'array' }, `${what} list`).data.map((x) => item(x));

/** OAUTH and PASSKEY sessions carry the encrypted session key (DESIGN.md wire format 4). */
function withSigningKey(s: AuthSession, what: string): AuthSession & { encryptedSessionSigningKey: string } {
  if (!s.encryptedSessionSigningKey) throw new WalletError('unexpected_response', `The service's ${what} carried no encryptedSessionSigningKey.`);
  return s as AuthSession & { encryptedSessionSigningKey: string };
}

// ---------------------------------------------------------------------------------------------
// Arguments and paths

function query(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

function checkClientPublicKey(hex: string): void {
  if (typeof hex !== 'string' || !/^04[0-9a-f]{128}$/.test(hex)) {
    invalid('clientPublicKey must be an uncompressed P-256 public key in lowercase hex (04 + 128 hex).');
  }
}

function bearer(token: string): Record<string, string> {
  if (typeof token !== 'string' || token.length === 0 || /[\s,]/.test(token)) invalid('agentToken must be a non-empty token.');
  return { Authorization: `Bearer ${token}` };
}

// ---------------------------------------------------------------------------------------------
// Signed exchanges

/** One exchange through the signed retry (api.md "Signed-retry pattern"): a 202 needs `stamper`. */
async function signed(
  send: Send,
  method: 'POST' | 'PATCH' | 'DELETE',
  path: string,
  what: string,
  x: Exchange & { stamper?: Stamper | undefined; missing?: string },
): Promise<unknown> {
  const res = await sendSigned({ send, method, path, body: x.body, stamper: x.stamper, signal: x.signal, missingStamperMessage: x.missing });
  return answer(res, what, x.ok);
}

const CREATED = [200, 201];
const GONE = [200, 204];

// ---------------------------------------------------------------------------------------------
// Credentials and sessions (reference.md "Credentials", "Sessions")

export async function createCredential(send: Send, body: CreateCredentialRequest, o?: MaybeSignedCallOptions): Promise<AuthMethodResponse> {
  return asAuthMethod(
    await signed(send, 'POST', '/auth/credentials', 'credential creation', {
      ...o,
      body,
      ok: CREATED,
      missing: 'This wallet already has a credential: adding another needs a signature from an active session. Log in first.',
    }),
  );
}

export async function listCredentials(send: Send, accountId: string, o?: CallOptions): Promise<AuthMethod[]> {
  return asList(await request(send, 'GET', `/auth/credentials${query({ accountId })}`, 'credential list', o), asAuthMethod, 'credential');
}

export async function revokeCredential(send: Send, credentialId: string, o: SignedCallOptions): Promise<void> {
  await signed(send, 'DELETE', `/auth/credentials/${seg(credentialId, 'credentialId')}`, 'credential revocation', { ...o, ok: GONE });
}

export async function requestOtpChallenge(
  send: Send,
  credentialId: string,
  o?: CallOptions,
): Promise<AuthMethodResponse & { otpEncryptionTargetBundle: string }> {
  const m = asAuthMethod(await request(send, 'POST', `/auth/credentials/${seg(credentialId, 'credentialId')}/challenge`, 'OTP challenge', { ...o, body: {} }), 'OTP challenge');
  if (m.type !== 'EMAIL_OTP' && m.type !== 'SMS_OTP') {
    throw new WalletError('unexpected_response', 'The OTP challenge was answered for a credential that is not an OTP credential.');
  }
  if (!m.otpEncryptionTargetBundle) throw new WalletError('unexpected_response', 'The OTP challenge carried no otpEncryptionTargetBundle.');
  return m as AuthMethodResponse & { otpEncryptionTargetBundle: string };
}

export async function requestPasskeyChallenge(send: Send, credentialId: string, clientPublicKey: string, o?: CallOptions): Promise<PasskeyChallenge> {
  checkClientPublicKey(clientPublicKey);
  const path = `/auth/credentials/${seg(credentialId, 'credentialId')}/challenge`;
  return check(await request(send, 'POST', path, 'passkey challenge', { ...o, body: { clientPublicKey } }), PASSKEY_CHALLENGE, 'passkey challenge');
}

export async function verifyOtp(
  send: Send,
  credentialId: string,
  body: { type: 'EMAIL_OTP' | 'SMS_OTP'; encryptedOtpBundle: string },
  o: SignedCallOptions,
): Promise<AuthSession> {
  const path = `/auth/credentials/${seg(credentialId, 'credentialId')}/verify`;
  const s = asSession(
    await signed(send, 'POST', path, 'OTP verification', { ...o, body: { type: body.type, encryptedOtpBundle: body.encryptedOtpBundle }, ok: CREATED }),
  );
  // reference.md: never on OTP sessions. The key that signed leg 2 IS the session key.
  if (s.encryptedSessionSigningKey !== undefined) {
    throw new WalletError('unexpected_response', 'The OTP session unexpectedly carried a session signing key.');
  }
  return s;
}

export async function verifyOAuth(
  send: Send,
  credentialId: string,
  body: { oidcToken: string; clientPublicKey: string },
  o?: CallOptions,
): Promise<AuthSession & { encryptedSessionSigningKey: string }> {
  checkClientPublicKey(body.clientPublicKey);
  const path = `/auth/credentials/${seg(credentialId, 'credentialId')}/verify`;
  const reply = await request(send, 'POST', path, 'OAuth verification', {
    ...o,
    body: { type: 'OAUTH', oidcToken: body.oidcToken, clientPublicKey: body.clientPublicKey },
    ok: CREATED,
  });
  return withSigningKey(asSession(reply), 'OAuth session');
}

export async function verifyPasskey(
  send: Send,
  credentialId: string,
  body: { assertion: PasskeyAssertion; requestId: string },
  o?: CallOptions,
): Promise<AuthSession & { encryptedSessionSigningKey: string }> {
  if (!valid(body.requestId, 'Request:')) {
    throw new WalletError('unexpected_response', 'The service\'s passkey challenge has no valid "requestId" (Request:<uuid>).');
  }
  const path = `/auth/credentials/${seg(credentialId, 'credentialId')}/verify`;
  const reply = await request(send, 'POST', path, 'passkey verification', {
    ...o,
    body: { type: 'PASSKEY', assertion: body.assertion },
    headers: { [REQUEST_ID_HEADER]: body.requestId },
    ok: CREATED,
  });
  return withSigningKey(asSession(reply), 'passkey session');
}

export async function listSessions(send: Send, accountId: string, o?: CallOptions): Promise<AuthSession[]> {
  return asList(await request(send, 'GET', `/auth/sessions${query({ accountId })}`, 'session list', o), asSession, 'session');
}

export async function refreshSession(send: Send, sessionId: string, clientPublicKey: string, o: SignedCallOptions): Promise<AuthSession> {
  checkClientPublicKey(clientPublicKey);
  const path = `/auth/sessions/${seg(sessionId, 'sessionId')}/refresh`;
  return asSession(await signed(send, 'POST', path, 'session refresh', { ...o, body: { clientPublicKey }, ok: CREATED }), 'refreshed session');
}

export async function revokeSession(send: Send, sessionId: string, o: SignedCallOptions): Promise<void> {
  await signed(send, 'DELETE', `/auth/sessions/${seg(sessionId, 'sessionId')}`, 'session revocation', { ...o, ok: GONE });
}

// ---------------------------------------------------------------------------------------------
// Delegated keys and cards (reference.md "Delegated keys", "Cards"; revealCard is in cards.ts)

export async function createDelegatedKey(send: Send, body: CreateDelegatedKeyRequest, o: SignedCallOptions): Promise<DelegatedKey> {
  return asDelegatedKey(await signed(send, 'POST', '/auth/delegated-keys', 'delegated key creation', { ...o, body, ok: CREATED }));
}

export async function listDelegatedKeys(send: Send, q: ListDelegatedKeysQuery, o?: CallOptions): Promise<DelegatedKey[]> {
  if (!q?.accountId && !q?.fundingSourceId) invalid('listDelegatedKeys needs accountId or fundingSourceId.');
  const path = `/auth/delegated-keys${query({ accountId: q.accountId, fundingSourceId: q.fundingSourceId })}`;
  return asList(await request(send, 'GET', path, 'delegated key list', o), asDelegatedKey, 'delegated key');
}

export async function getDelegatedKey(send: Send, id: string, o?: CallOptions): Promise<DelegatedKey> {
  return asDelegatedKey(await request(send, 'GET', `/auth/delegated-keys/${seg(id, 'id')}`, 'delegated key', o));
}

export async function revokeDelegatedKey(send: Send, id: string, o?: CallOptions): Promise<void> {
  await request(send, 'DELETE', `/auth/delegated-keys/${seg(id, 'id')}`, 'delegated key revocation', { ...o, ok: GONE });
}

export { revealCard } from './cards.ts';

// ---------------------------------------------------------------------------------------------
// Agents (reference.md "Agents": Bearer auth with the agent's token)

export async function listAgentActions(send: Send, o: ListAgentActionsOptions): Promise<AgentActionList> {
  const { limit, status, cursor } = o;
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 100)) invalid('limit must be an integer from 1 to 100.');
  if (status !== undefined && !AGENT_ACTION_STATUSES.includes(status)) invalid(`status must be one of ${AGENT_ACTION_STATUSES.join(', ')}.`);
  const reply = await request(send, 'GET', `/agents/me/actions${query({ status, limit, cursor })}`, 'agent action list', {
    signal: o.signal,
    headers: bearer(o.agentToken),
  });
  const l = check<AgentActionList>(reply, { data: 'array', hasMore: 'boolean', nextCursor: 'string?', totalCount: 'number?' }, 'agent action list');
  if (l.hasMore && !l.nextCursor) throw new WalletError('unexpected_response', 'The agent action list says hasMore but has no nextCursor.');
  const page: AgentActionList = { data: l.data.map(asAgentAction), hasMore: l.hasMore };
  if (l.hasMore) page.nextCursor = l.nextCursor!;
  if (typeof l.totalCount === 'number') page.totalCount = l.totalCount;
  return page;
}

export async function* iterateAgentActions(send: Send, o: IterateAgentActionsOptions): AsyncGenerator<AgentAction, void, undefined> {
  const maxPages = o.maxPages ?? 1000;
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const res = await listAgentActions(send, { agentToken: o.agentToken, status: o.status, limit: o.limit || undefined, cursor, signal: o.signal });
    yield* res.data;
    if (!res.hasMore || !res.nextCursor) return;
    // A cursor that comes back is a loop, not progress.
    if (seen.has(res.nextCursor)) throw new WalletError('unexpected_response', 'The agent action list returned a cursor it had already returned.');
    seen.add((cursor = res.nextCursor));
  }
  throw new WalletError('unexpected_response', `The agent action list did not end within ${maxPages} pages.`);
}

export async function getAgentAction(send: Send, actionId: string, o: AgentCallOptions): Promise<AgentAction> {
  return asAgentAction(await request(send, 'GET', `/agents/me/actions/${seg(actionId, 'actionId')}`, 'agent action', { signal: o.signal, headers: bearer(o.agentToken) }));
}

// ---------------------------------------------------------------------------------------------
// Wallet and customer (reference.md "Internal accounts", "Customers")

export async function exportWallet(send: Send, accountId: string, clientPublicKey: string, o: SignedCallOptions): Promise<ExportResponse> {
  checkClientPublicKey(clientPublicKey);
  const path = `/internal-accounts/${seg(accountId, 'accountId')}/export`;
  const reply = await signed(send, 'POST', path, 'wallet export', { ...o, body: { clientPublicKey }, ok: CREATED });
  return check(reply, { id: 'string', encryptedWalletCredentials: 'string' }, 'wallet export');
}

export async function setWalletPrivacy(send: Send, accountId: string, privateEnabled: boolean, o: SignedCallOptions): Promise<InternalAccount> {
  if (typeof privateEnabled !== 'boolean') invalid('privateEnabled must be a boolean.');
  const path = `/internal-accounts/${seg(accountId, 'accountId')}`;
  const reply = await signed(send, 'PATCH', path, 'wallet privacy update', { ...o, body: { privateEnabled }, ok: [200] });
  return check(reply, { id: 'InternalAccount:', privateEnabled: 'boolean?' }, 'internal account');
}

export async function updateCustomerEmail(send: Send, customerId: string, email: string, o?: MaybeSignedCallOptions): Promise<Customer> {
  if (typeof email !== 'string' || !/^[^\s@]+@[^\s@]+$/.test(email)) invalid('email must be an email address.');
  const reply = await signed(send, 'PATCH', `/customers/${seg(customerId, 'customerId')}`, 'customer email update', {
    ...o,
    body: { email },
    ok: [200],
    missing: 'This email is tied to an email login: changing it needs a signature from an active session. Log in first.',
  });
  return check(reply, { id: 'Customer:', email: 'string?' }, 'customer');
}

/** The proxy's POST {base}/webauthn/registration-options {accountId}; its challenge is base64url. */
export async function webauthnRegistrationOptions(send: Send, accountId: string, o?: CallOptions): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const reply = await request(send, 'POST', '/webauthn/registration-options', 'passkey registration options', { ...o, body: { accountId } });
  return check(
    reply,
    { challenge: /^[A-Za-z0-9_-]+$/, rp: 'object', user: 'object', pubKeyCredParams: 'array', excludeCredentials: 'array?' },
    'passkey registration options',
  );
}
