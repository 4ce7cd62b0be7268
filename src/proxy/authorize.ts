/**
 * The `authorize` hook's types, and the explicit demo binding: a proxy that lets its callers touch
 * one customer, one Embedded Wallet internal account and one card, and nothing else.
 *
 * DESIGN.md "How a call travels": which account, card and customer the browser's user may touch is
 * the integrator's decision, asked per request through `authorize`. The demo binding decides it for
 * a single fixed user (the sandbox's demo user, or one account of a real platform in a demo):
 *  - account ids in bodies and queries (`accountId`, `internalAccountId`) must be the bound account;
 *    card ids in paths and bodies must be the bound card; the customer path must be the bound customer;
 *  - credential, session and delegated-key ids in paths must be among those the service lists for
 *    the bound account (reference.md: `GET /auth/credentials|sessions|delegated-keys?accountId=`),
 *    read with a short cache and read again on a miss (an id created a moment ago is found);
 *  - agent routes carry the agent's own bearer token, which is its own credential (api.md
 *    "Authentication"), so they are not bound to the account.
 * An id that is not the account's answers 404 NOT_FOUND, the same as an unknown id, so that the
 * answer does not tell whether someone else's id exists (and a logout of an expired session, which
 * the service answers 404, still reads as "already done").
 *
 * Deliberately does not: authenticate the browser's user. The demo binding trusts every caller who
 * can reach the proxy with that one account; real integrators supply their own `authorize`.
 */
import type { IncomingMessage } from 'node:http';
import { foldName } from './json.ts';
import { isId, type RouteName } from './routes.ts';

export interface AuthorizeContext {
  request: IncomingMessage;
  route: RouteName;
  /** Path ids; every route has at most one, under `id`. */
  params: Record<string, string>;
  /** The validated query parameters (GET routes). */
  query: Record<string, string>;
  /** The parsed JSON body, or undefined when there is none. */
  body: unknown;
}

/** An explicit refusal, answered in the service's error shape. */
export interface AuthorizeRefusal {
  status: number;
  code: string;
  message: string;
}

export type AuthorizeDecision = boolean | AuthorizeRefusal;
export type AuthorizeHook = (ctx: AuthorizeContext) => AuthorizeDecision | Promise<AuthorizeDecision>;

export interface DemoAccount {
  customerId: string;
  accountId: string;
  cardId: string;
}

/** Which customer, account and card the request's user owns (the integrator's `accountFor`), or undefined. */
export type AccountResolver = (request: IncomingMessage) => DemoAccount | undefined | Promise<DemoAccount | undefined>;

/**
 * The resolver asked once per request, however many hooks ask (the account binding, the step-up):
 * an integrator's resolver may read a session store.
 */
export function oncePerRequest(resolve: AccountResolver): AccountResolver {
  const answers = new WeakMap<IncomingMessage, DemoAccount | undefined | Promise<DemoAccount | undefined>>();
  return (request) => {
    if (!answers.has(request)) answers.set(request, resolve(request));
    return answers.get(request);
  };
}

/** Reads `{data: [...]}` from a service list path, or throws. */
export type ListReader = (path: string) => Promise<Array<Record<string, unknown>>>;

const FORBIDDEN: AuthorizeRefusal = { status: 403, code: 'FORBIDDEN', message: 'This proxy only serves its own account, card and customer.' };
const UNAUTHENTICATED: AuthorizeRefusal = { status: 401, code: 'UNAUTHORIZED', message: 'Sign in to your account first.' };
const NOT_FOUND: AuthorizeRefusal = { status: 404, code: 'NOT_FOUND', message: 'No such resource on this account.' };

type Collection = 'credentials' | 'sessions' | 'delegated-keys';

export function validateDemoAccount(binding: DemoAccount): DemoAccount {
  const ok = binding && isId(binding.customerId, 'Customer') && isId(binding.accountId, 'InternalAccount') && isId(binding.cardId, 'Card');
  if (!ok) throw new TypeError('demoAccount needs {customerId: "Customer:<uuid>", accountId: "InternalAccount:<uuid>", cardId: "Card:<uuid>"}');
  return { customerId: binding.customerId, accountId: binding.accountId, cardId: binding.cardId };
}

export function demoAccountAuthorize(binding: DemoAccount, list: ListReader, cacheMs = 5000): AuthorizeHook {
  const fixed = validateDemoAccount(binding);
  return accountAuthorize(() => fixed, list, cacheMs);
}

/**
 * The binding rules of the demo, per caller: `resolve` says which customer, account and card the
 * request's user owns (from the integrator's own session, cookie or token), or undefined to refuse
 * (401). Lists read upstream are cached per account.
 */
export function accountAuthorize(
  resolve: AccountResolver,
  list: ListReader,
  cacheMs = 5000,
): AuthorizeHook {
  const perAccount = new Map<string, AccountRule>();
  return async (ctx) => {
    if (ctx.route === 'listAgentActions' || ctx.route === 'getAgentAction') return true;
    const found = await resolve(ctx.request);
    if (!found) return UNAUTHENTICATED;
    const binding = validateDemoAccount(found);
    let rule = perAccount.get(binding.accountId);
    if (!rule) {
      // Bounded: an integrator with many users keeps at most this many account caches.
      if (perAccount.size >= 1000) perAccount.delete(perAccount.keys().next().value!);
      rule = accountRule(binding, list, cacheMs);
      perAccount.set(binding.accountId, rule);
    }
    return rule(ctx, binding);
  };
}

type AccountRule = (ctx: AuthorizeContext, binding: DemoAccount) => Promise<AuthorizeDecision>;

function accountRule(binding: DemoAccount, list: ListReader, cacheMs: number): AccountRule {
  const { accountId } = binding;
  const cache = new Map<Collection, { rows: Array<Record<string, unknown>>; at: number }>();
  const inflight = new Map<Collection, Promise<Array<Record<string, unknown>>>>();

  function fetchRows(collection: Collection): Promise<Array<Record<string, unknown>>> {
    let p = inflight.get(collection);
    if (!p) {
      p = list(`/auth/${collection}?accountId=${encodeURIComponent(accountId)}`)
        .then((rows) => {
          cache.set(collection, { rows, at: Date.now() });
          return rows;
        })
        .finally(() => inflight.delete(collection));
      inflight.set(collection, p);
    }
    return p;
  }

  /** True when `pick(row)` holds for a listed row; a miss in a cached list is read again once. */
  async function listed(collection: Collection, pick: (row: Record<string, unknown>) => boolean): Promise<boolean> {
    const cached = cache.get(collection);
    if (cached && Date.now() - cached.at < cacheMs && cached.rows.some(pick)) return true;
    return (await fetchRows(collection)).some(pick);
  }

  const owns = async (collection: Collection, id: string | undefined) =>
    id !== undefined && (await listed(collection, (row) => row.id === id)) ? true : NOT_FOUND;

  return async ({ route, params, query, body }, { customerId, cardId }) => {

    // Any account, card or customer id in a body must be the bound one, whatever the route, under
    // any spelling a case-insensitive decoder upstream would take for that field (`AccountId`).
    const fields = isObject(body) ? body : {};
    const bound: Record<string, string> = { accountid: accountId, internalaccountid: accountId, cardid: cardId, customerid: customerId };
    for (const [name, value] of Object.entries(fields)) {
      const expected = bound[foldName(name)];
      if (expected !== undefined && value !== expected) return FORBIDDEN;
    }

    switch (route) {
      case 'createCredential':
      case 'webauthnRegistrationOptions':
        return fields.accountId === accountId || FORBIDDEN;
      case 'listCredentials':
      case 'listSessions':
        return query.accountId === accountId || FORBIDDEN;
      case 'deleteCredential':
      case 'credentialChallenge':
      case 'verifyCredential':
        return owns('credentials', params.id);
      case 'refreshSession':
      case 'deleteSession':
        return owns('sessions', params.id);
      case 'createDelegatedKey':
        return (fields.cardId === cardId && fields.internalAccountId === accountId) || FORBIDDEN;
      case 'listDelegatedKeys':
        if (query.accountId !== undefined) return query.accountId === accountId || FORBIDDEN;
        // Only a funding source: it must be one the account's delegated keys are bound to.
        return (await listed('delegated-keys', (row) => row.fundingSourceId === query.fundingSourceId)) || FORBIDDEN;
      case 'getDelegatedKey':
      case 'deleteDelegatedKey':
        return owns('delegated-keys', params.id);
      case 'revealCard':
        return params.id === cardId || FORBIDDEN;
      case 'exportWallet':
      case 'updateInternalAccount':
        return params.id === accountId || FORBIDDEN;
      case 'updateCustomer':
        return params.id === customerId || FORBIDDEN;
    }
    // Agent routes are answered before the binding is resolved; anything else is not this account's.
    return FORBIDDEN;
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
