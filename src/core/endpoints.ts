/**
 * The endpoints of spec/api.md and spec/reference.md that the library uses, plus the proxy's own
 * `POST {base}/webauthn/registration-options`, as one table of the WalletClient's methods over one
 * caller (`call`: the signed retry, the documented statuses). `createClient` (client.ts) builds the
 * table over the transport (http.ts `createHttp`). Answers are checked against the shape of their
 * resource (shapes.ts says how) where a wrong answer would do harm.
 * The agents' endpoints are also exported with the transport first, for <agent-actions>;
 * `revealCard` lives in cards.ts, so that <card-reveal> can load it without the others.
 *
 * Deliberately not here: HTTP itself and error mapping (http.ts), the signed retry
 * (signed-retry.ts), keys (session.ts). Errors never carry bodies, stamps, tokens or reveal URLs.
 */
import { WalletError } from './errors.ts';
import { check, invalid, seg, type Shape } from './shapes.ts';
import { REQUEST_ID_HEADER, sendSigned, type HttpRequest, type Send } from './signed-retry.ts';
import { revealCard } from './cards.ts';
import type { Stamper } from './stamp.ts';
import {
  AGENT_ACTION_STATUSES,
  CREDENTIAL_TYPES,
  DELEGATED_KEY_STATUSES,
  type AgentAction,
  type AgentActionList,
  type AuthMethodResponse,
  type AuthSession,
  type DelegatedKey,
} from './types.ts';
import type { AgentCallOptions, IterateAgentActionsOptions, ListAgentActionsOptions, WalletClient } from './client.ts';
import type { PublicKeyCredentialCreationOptionsJSON } from './webauthn.ts';

// ---------------------------------------------------------------------------------------------
// Shapes of the resources (reference.md)

const METHOD_FIELDS = { accountId: 'string', credentialId: 'string?', nickname: 'string?', createdAt: 'string?', updatedAt: 'string?' } as const;
const AUTH_METHOD: Shape = { ...METHOD_FIELDS, id: 'AuthMethod:', type: CREDENTIAL_TYPES, otpEncryptionTargetBundle: 'string?' };
const SESSION: Shape = { ...METHOD_FIELDS, id: 'Session:', type: CREDENTIAL_TYPES, expiresAt: 'date', encryptedSessionSigningKey: 'string?' };
const PASSKEY_CHALLENGE: Shape = { ...METHOD_FIELDS, credentialId: 'string', challenge: /^[0-9a-f]+$/, requestId: 'Request:', expiresAt: 'string' };
const DELEGATED_KEY: Shape = {
  id: 'DelegatedKey:',
  cardId: 'string',
  fundingSourceId: 'string',
  accountId: 'string',
  publicKey: 'string',
  nickname: 'string',
  status: DELEGATED_KEY_STATUSES,
  spendingLimits: 'array?',
};
const AGENT_ACTION: Shape = { id: 'AgentAction:', status: AGENT_ACTION_STATUSES, type: 'string', quote: 'object?', transferDetails: 'object?', transaction: 'object?' };
const AGENT_ACTION_PAGE: Shape = { data: 'array', hasMore: 'boolean', nextCursor: 'string?', totalCount: 'number?' };

const unexpected = (message: string): WalletError => new WalletError('unexpected_response', message);
const asAuthMethod = (v: unknown) => check<AuthMethodResponse>(v, AUTH_METHOD, 'credential');
const asSession = (v: unknown) => check<AuthSession>(v, SESSION, 'session');
const asDelegatedKey = (v: unknown) => check<DelegatedKey>(v, DELEGATED_KEY, 'delegated key');
const asAgentAction = (v: unknown) => check<AgentAction>(v, AGENT_ACTION, 'agent action');
const asList = <T>(v: unknown, item: (x: unknown) => T): T[] => check<{ data: unknown[] }>(v, { data: 'array' }, 'list').data.map(item);

/** OAUTH and PASSKEY sessions carry the encrypted session key (DESIGN.md wire format 4). */
const withSigningKey = (v: unknown) => check<AuthSession & { encryptedSessionSigningKey: string }>(v, { ...SESSION, encryptedSessionSigningKey: /./ }, 'session');

// ---------------------------------------------------------------------------------------------
// Arguments and the caller

/** `?k=v&…` of the defined values, or nothing. */
function query(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, String(v));
  const s = String(q);
  return s && `?${s}`;
}

/** An ECDH receiver key as the service takes it: uncompressed, lowercase hex. */
function receiverKey(hex: string): string {
  if (typeof hex !== 'string' || !/^04[0-9a-f]{128}$/.test(hex)) {
    invalid('clientPublicKey must be 04 and 128 lowercase hex digits.');
  }
  return hex;
}

function bearer(token: string): Record<string, string> {
  if (typeof token !== 'string' || !token || /[\s,]/.test(token)) invalid('agentToken must be a non-empty token.');
  return { Authorization: `Bearer ${token}` };
}

const CREATED = [200, 201];
const GONE = [200, 204];

/**
 * One exchange through the signed retry (api.md "Signed-retry pattern"): a 202 is signed with
 * `o.stamper` (WalletError 'session_expired' without one). `ok`: the statuses the operation
 * documents, any 2xx when absent. Answers the parsed body.
 */
async function call(
  send: Send,
  o: { signal?: AbortSignal; stamper?: Stamper; restartBody?: () => unknown } | undefined,
  method: HttpRequest['method'],
  path: string,
  body?: unknown,
  ok?: number[],
  headers?: Record<string, string>,
): Promise<unknown> {
  // The caller's options as they are (signal, stamper, restartBody); the request's own parts win.
  const res = await sendSigned({ ...o, send, method, path, body, headers });
  if (ok && !ok.includes(res.status)) throw unexpected(`The service answered ${res.status} to ${method} ${path.split('?')[0]}.`);
  return res.body;
}

// ---------------------------------------------------------------------------------------------
// Agents (reference.md "Agents": Bearer auth with the agent's token)

export async function listAgentActions(send: Send, o: ListAgentActionsOptions): Promise<AgentActionList> {
  const { limit, status, cursor } = o;
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 100)) invalid('limit must be an integer from 1 to 100.');
  if (status !== undefined && !AGENT_ACTION_STATUSES.includes(status)) invalid(`status must be one of ${AGENT_ACTION_STATUSES}.`);
  const reply = await call(send, o, 'GET', `/agents/me/actions${query({ status, limit, cursor })}`, undefined, undefined, bearer(o.agentToken));
  const l = check<AgentActionList>(reply, AGENT_ACTION_PAGE, 'agent action list');
  // More pages need a cursor to them.
  if (l.hasMore) check(l, { nextCursor: /./ }, 'agent action list');
  // Only the documented fields, and a cursor only when there is more.
  return {
    data: l.data.map(asAgentAction),
    hasMore: l.hasMore,
    ...(l.hasMore && { nextCursor: l.nextCursor! }),
    ...(l.totalCount !== undefined && { totalCount: l.totalCount }),
  };
}

export async function* iterateAgentActions(send: Send, o: IterateAgentActionsOptions): AsyncGenerator<AgentAction, void, undefined> {
  const maxPages = o.maxPages ?? 1000;
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const res = await listAgentActions(send, { agentToken: o.agentToken, status: o.status, limit: o.limit || undefined, cursor, signal: o.signal });
    yield* res.data;
    if (!res.hasMore) return;
    // A cursor that comes back is a loop, not progress.
    if (seen.has(res.nextCursor!)) throw unexpected('The agent action list repeated a cursor.');
    seen.add((cursor = res.nextCursor!));
  }
  throw unexpected(`The agent action list did not end within ${maxPages} pages.`);
}

export async function getAgentAction(send: Send, actionId: string, o: AgentCallOptions): Promise<AgentAction> {
  return asAgentAction(await call(send, o, 'GET', `/agents/me/actions/${seg(actionId, 'actionId', 'AgentAction')}`, undefined, undefined, bearer(o.agentToken)));
}

// ---------------------------------------------------------------------------------------------
// The table

/** Writes made through any client of the page (every leg, answered or not), and changes other tabs told (`readsAnew`). */
let writes = 0;

/** A read asked for from now on takes no answer of one asked for before: the list it reads may have changed. */
export const readsAnew = (): void => void writes++;

/** WalletClient over `transport`, whose writes it counts; the comments of WalletClient (client.ts) say what each method does. */
export function walletMethods(transport: Send): WalletClient {
  const send: Send = (r) => (r.method == 'GET' ? transport(r) : transport(r).finally(readsAnew));
  const reads: Record<string, { p: Promise<unknown>; c: AbortController; n: number }> = {};
  /**
   * GET `path`, answered by `parse`: identical reads on their way at once (the elements of one wallet
   * starting together) share one request, asked for since the same write. Each caller gets its own
   * copy of the answer, or the failure; nothing is kept once it is in. A caller stopped stops waiting
   * (WalletError 'aborted'), and no later read joins the request: it runs on for the others, and
   * stops when none waits any more.
   */
  const read = <T>(path: string, parse: (body: unknown) => T, o?: { signal?: AbortSignal }): Promise<T> => {
    const key = writes + path;
    const signal = o?.signal;
    return new Promise<T>((ok, no) => {
      const c = new AbortController();
      const r = signal?.aborted
        ? undefined
        : (reads[key] ??= {
            c,
            n: 0,
            p: call(send, { signal: c.signal }, 'GET', path)
              .then(parse)
              .finally(() => reads[key] === r && delete reads[key]),
          });
      const stop = () => {
        if (reads[key] === r) delete reads[key];
        if (r && !--r.n) r.c.abort();
        no(new WalletError('aborted', 'The request was aborted.', { cause: signal!.reason }));
      };
      if (!r) return stop();
      r.n++;
      signal?.addEventListener('abort', stop);
      r.p.then((v) => ok(structuredClone(v) as T), no).finally(() => signal?.removeEventListener('abort', stop));
    });
  };

  const credential = (id: string, action = '') => `/auth/credentials/${seg(id, 'credentialId', 'AuthMethod')}${action}`;
  const session = (id: string, action = '') => `/auth/sessions/${seg(id, 'sessionId', 'Session')}${action}`;
  const delegatedKey = (id: string) => `/auth/delegated-keys/${seg(id, 'id', 'DelegatedKey')}`;
  const account = (id: string, action = '') => `/internal-accounts/${seg(id, 'accountId', 'InternalAccount')}${action}`;
  return {
    send,
    // Credentials and sessions (reference.md "Credentials", "Sessions")
    createCredential: async (body, o) => asAuthMethod(await call(send, o, 'POST', '/auth/credentials', body, CREATED)),
    listCredentials: (accountId, o) => read(`/auth/credentials${query({ accountId })}`, (v) => asList(v, asAuthMethod), o),
    revokeCredential: async (id, o) => void (await call(send, o, 'DELETE', credential(id), undefined, GONE)),
    requestOtpChallenge: async (id, o) => {
      const shape = { ...AUTH_METHOD, type: /^(EMAIL|SMS)_OTP$/, otpEncryptionTargetBundle: /./ };
      return check<AuthMethodResponse & { otpEncryptionTargetBundle: string }>(await call(send, o, 'POST', credential(id, '/challenge'), {}), shape, 'OTP challenge');
    },
    requestPasskeyChallenge: async (id, clientPublicKey, o) =>
      check(await call(send, o, 'POST', credential(id, '/challenge'), { clientPublicKey: receiverKey(clientPublicKey) }), PASSKEY_CHALLENGE, 'passkey challenge'),
    verifyOtp: async (id, { type, encryptedOtpBundle }, o) => {
      const s = asSession(await call(send, o, 'POST', credential(id, '/verify'), { type, encryptedOtpBundle }, CREATED));
      // reference.md: never on OTP sessions. The key that signed leg 2 IS the session key.
      if (s.encryptedSessionSigningKey !== undefined) throw unexpected('The OTP session carried a signing key.');
      return s;
    },
    verifyOAuth: async (id, { oidcToken, clientPublicKey }, o) =>
      withSigningKey(await call(send, o, 'POST', credential(id, '/verify'), { type: 'OAUTH', oidcToken, clientPublicKey: receiverKey(clientPublicKey) }, CREATED)),
    verifyPasskey: async (id, { assertion, requestId }, o) => {
      check({ requestId }, { requestId: 'Request:' }, 'passkey challenge');
      const body = { type: 'PASSKEY', assertion };
      return withSigningKey(await call(send, o, 'POST', credential(id, '/verify'), body, CREATED, { [REQUEST_ID_HEADER]: requestId }));
    },
    listSessions: (accountId, o) => read(`/auth/sessions${query({ accountId })}`, (v) => asList(v, asSession), o),
    refreshSession: async (id, clientPublicKey, o) =>
      asSession(await call(send, o, 'POST', session(id, '/refresh'), { clientPublicKey: receiverKey(clientPublicKey) }, CREATED)),
    revokeSession: async (id, o) => void (await call(send, o, 'DELETE', session(id), undefined, GONE)),

    // Delegated keys and cards (reference.md "Delegated keys", "Cards")
    createDelegatedKey: async (body, o) => asDelegatedKey(await call(send, o, 'POST', '/auth/delegated-keys', body, CREATED)),
    listDelegatedKeys: async (q, o) => {
      if (!q?.accountId && !q?.fundingSourceId) invalid('listDelegatedKeys needs accountId or fundingSourceId.');
      return read(`/auth/delegated-keys${query({ accountId: q.accountId, fundingSourceId: q.fundingSourceId })}`, (v) => asList(v, asDelegatedKey), o);
    },
    getDelegatedKey: async (id, o) => asDelegatedKey(await call(send, o, 'GET', delegatedKey(id))),
    revokeDelegatedKey: async (id, o) => void (await call(send, o, 'DELETE', delegatedKey(id), undefined, GONE)),
    revealCard: (id, o) => revealCard(send, id, o),

    // Agents
    listAgentActions: (o) => listAgentActions(send, o),
    iterateAgentActions: (o) => iterateAgentActions(send, o),
    getAgentAction: (id, o) => getAgentAction(send, id, o),

    // Wallet and customer (reference.md "Internal accounts", "Customers")
    exportWallet: async (accountId, clientPublicKey, o) =>
      check(
        await call(send, o, 'POST', account(accountId, '/export'), { clientPublicKey: receiverKey(clientPublicKey) }, CREATED),
        { id: 'string', encryptedWalletCredentials: 'string' },
        'wallet export',
      ),
    setWalletPrivacy: async (accountId, privateEnabled, o) => {
      if (typeof privateEnabled !== 'boolean') invalid('privateEnabled must be a boolean.');
      return check(await call(send, o, 'PATCH', account(accountId), { privateEnabled }, [200]), { id: 'InternalAccount:', privateEnabled: 'boolean?' }, 'internal account');
    },
    updateCustomerEmail: async (customerId, email, o) => {
      if (typeof email !== 'string' || !/^[^\s@]+@[^\s@]+$/.test(email)) invalid('email must be an email address.');
      return check(await call(send, o, 'PATCH', `/customers/${seg(customerId, 'customerId', 'Customer')}`, { email }, [200]), { id: 'Customer:', email: 'string?' }, 'customer');
    },
    // The proxy's own route; its challenge is base64url.
    webauthnRegistrationOptions: async (accountId, o) =>
      check<PublicKeyCredentialCreationOptionsJSON>(
        await call(send, o, 'POST', '/webauthn/registration-options', { accountId }),
        { challenge: /^[\w-]+$/, rp: 'object', user: 'object', pubKeyCredParams: 'array', excludeCredentials: 'array?' },
        'passkey registration options',
      ),
  };
}
