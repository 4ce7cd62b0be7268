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
 *    read with a short cache and read again on a miss (an id created a moment ago is found). Each
 *    request with a made-up id would otherwise have the proxy read, and parse, a whole list (not
 *    paged; sessions pile up) from the service, so misses read one list of one account at most 5
 *    times at once and then once per `missReadMs` (1 s); the misses meanwhile wait for the next
 *    read and share it. An id the account created through this proxy (a 2xx other than 202 on
 *    credential create, verify, session refresh or delegated-key create) lets the next miss read at
 *    once, so the usual flows do not wait. The cache can only delay an answer, never decide one: an
 *    id missing from it is read for before it is refused, and an id in it was listed for this
 *    account, which an id never leaves (one deleted since is the service's to answer 404);
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
import type { ProxyRequest } from './request.ts';
import { isId, type RouteName } from './routes.ts';

/**
 * `R` is the request as the proxy got it: the Node handler's IncomingMessage, or the Request given
 * to `proxy.fetch` (see ProxyOptions).
 */
export interface AuthorizeContext<R extends ProxyRequest = IncomingMessage> {
  request: R;
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
export type AuthorizeHook<R extends ProxyRequest = IncomingMessage> = (ctx: AuthorizeContext<R>) => AuthorizeDecision | Promise<AuthorizeDecision>;

export interface DemoAccount {
  customerId: string;
  accountId: string;
  cardId: string;
}

/** Which customer, account and card the request's user owns (the integrator's `accountFor`), or undefined. */
export type AccountResolver<R extends ProxyRequest = IncomingMessage> = (request: R) => DemoAccount | undefined | Promise<DemoAccount | undefined>;

/**
 * The resolver asked once per request, however many hooks ask (the account binding, the step-up):
 * an integrator's resolver may read a session store.
 */
export function oncePerRequest(resolve: AccountResolver<ProxyRequest>): AccountResolver<ProxyRequest> {
  const answers = new WeakMap<ProxyRequest, DemoAccount | undefined | Promise<DemoAccount | undefined>>();
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
type Row = Record<string, unknown>;

/** The relayed calls whose success (a 2xx other than 202, a signed retry's challenge) adds an id to a list. */
const CREATES: Partial<Record<RouteName, Collection>> = {
  createCredential: 'credentials',
  verifyCredential: 'sessions',
  refreshSession: 'sessions',
  createDelegatedKey: 'delegated-keys',
};

/** The account binding's hook, told of the relayed answers that add ids to the account's lists. */
export type AccountAuthorizeHook = AuthorizeHook<ProxyRequest> & {
  /** Called with every relayed answer; a creation makes the next miss in that list read it at once. */
  changed(request: ProxyRequest, route: RouteName | 'unknown', status: number): void;
};

export function validateDemoAccount(binding: DemoAccount): DemoAccount {
  const ok = binding && isId(binding.customerId, 'Customer') && isId(binding.accountId, 'InternalAccount') && isId(binding.cardId, 'Card');
  if (!ok) throw new TypeError('demoAccount needs {customerId: "Customer:<uuid>", accountId: "InternalAccount:<uuid>", cardId: "Card:<uuid>"}');
  return { customerId: binding.customerId, accountId: binding.accountId, cardId: binding.cardId };
}

/**
 * The account lists read by a proxy's bindings, by account: a proxy given both `demoAccount` and
 * `accountFor` passes one to both, so that an account's list is read once for the two.
 */
export type AccountLists = Map<string, AccountRule>;

export function demoAccountAuthorize(binding: DemoAccount, list: ListReader, cacheMs = 5000, missReadMs = 1000, perAccount: AccountLists = new Map()): AccountAuthorizeHook {
  const fixed = validateDemoAccount(binding);
  return accountAuthorize(() => fixed, list, cacheMs, missReadMs, perAccount);
}

/**
 * The binding rules of the demo, per caller: `resolve` says which customer, account and card the
 * request's user owns (from the integrator's own session, cookie or token), or undefined to refuse
 * (401). Lists read upstream are cached per account (see the file header for how often a miss reads).
 */
export function accountAuthorize(
  resolve: AccountResolver<ProxyRequest>,
  list: ListReader,
  cacheMs = 5000,
  missReadMs = 1000,
  perAccount: AccountLists = new Map(),
): AccountAuthorizeHook {
  const hook: AuthorizeHook<ProxyRequest> = async (ctx) => {
    if (ctx.route === 'listAgentActions' || ctx.route === 'getAgentAction') return true;
    const found = await resolve(ctx.request);
    if (!found) return UNAUTHENTICATED;
    const binding = validateDemoAccount(found);
    let rule = perAccount.get(binding.accountId);
    if (!rule) {
      // Bounded: an integrator with many users keeps at most this many account caches.
      if (perAccount.size >= 1000) perAccount.delete(perAccount.keys().next().value!);
      rule = accountRule(binding, list, cacheMs, missReadMs);
      perAccount.set(binding.accountId, rule);
    }
    return rule.decide(ctx, binding);
  };
  const mark = (found: DemoAccount | undefined, collection: Collection) => {
    if (found) perAccount.get(found.accountId)?.changed(collection);
  };
  return Object.assign(hook, {
    changed(request: ProxyRequest, route: RouteName | 'unknown', status: number) {
      const collection = route === 'unknown' ? undefined : CREATES[route];
      if (collection === undefined || status < 200 || status > 299 || status === 202) return;
      // The request's own binding, already resolved by the hook (the resolver is asked once per request).
      const found = resolve(request);
      if (found instanceof Promise) void found.then((f) => mark(f, collection), () => undefined);
      else mark(found, collection);
    },
  });
}

interface AccountRule {
  decide(ctx: AuthorizeContext<ProxyRequest>, binding: DemoAccount): Promise<AuthorizeDecision>;
  /** An id was added to `collection` through the proxy. */
  changed(collection: Collection): void;
}

/** Reads of one list that misses may start at once; then one per missReadMs (see the file header). */
const MISS_READ_BURST = 5;

/** One list of one account, as read from the service. */
interface ListCache {
  rows: Row[];
  /** When the read that gave `rows` started (0: never read). */
  rowsAt: number;
  /** Reads that may start now (a token bucket, negative while one waits), as of `tokensAt`. */
  tokens: number;
  tokensAt: number;
  /** Creations seen through the proxy, and their count when the read that gave `rows` started. */
  changes: number;
  rowsChanges: number;
  /** The read under way or waiting to start, and the creation count it started at (undefined: not yet started). */
  next: Promise<Row[]> | undefined;
  nextChanges: number | undefined;
  /** Starts the read waiting for its turn in the bucket at once (undefined: none waits). */
  go?: (() => void) | undefined;
}

function accountRule(binding: DemoAccount, list: ListReader, cacheMs: number, missReadMs: number): AccountRule {
  const { accountId } = binding;
  const lists = new Map<Collection, ListCache>();

  function cacheOf(collection: Collection): ListCache {
    let c = lists.get(collection);
    if (!c) {
      c = { rows: [], rowsAt: 0, tokens: MISS_READ_BURST, tokensAt: 0, changes: 0, rowsChanges: 0, next: undefined, nextChanges: undefined };
      lists.set(collection, c);
    }
    return c;
  }

  /** Milliseconds until a read may start, taking its token now. */
  function takeRead(c: ListCache): number {
    const now = Date.now();
    c.tokens = Math.min(MISS_READ_BURST, c.tokens + (now - c.tokensAt) / missReadMs) - 1;
    c.tokensAt = now;
    return c.tokens >= 0 ? 0 : -c.tokens * missReadMs;
  }

  /**
   * The list as read from the service after this call: a read under way that began after the last
   * creation, or one still waiting to start, is shared (and then starts at once if an id was
   * created since); otherwise a new one starts, at once after a creation through the proxy, else
   * when the bucket has a read for it.
   */
  function readAgain(collection: Collection, c: ListCache): Promise<Row[]> {
    if (c.next && (c.nextChanges === undefined || c.nextChanges === c.changes)) {
      // One waiting for its turn starts now when an id was created since the rows kept.
      if (c.changes !== c.rowsChanges) c.go?.();
      return c.next;
    }
    const wait = c.changes === c.rowsChanges ? takeRead(c) : 0;
    const turn = new Promise<void>((go) => {
      if (wait <= 0) return go();
      const timer = setTimeout(go, wait);
      c.go = () => (clearTimeout(timer), go());
    });
    const read: Promise<Row[]> = turn.then(() => {
      if (c.next === read) c.go = undefined;
      const startedAt = Date.now();
      const startedChanges = c.changes;
      if (c.next === read) c.nextChanges = startedChanges;
      return list(`/auth/${collection}?accountId=${encodeURIComponent(accountId)}`).then((rows) => {
        // A read that began before the rows kept does not replace them.
        if (startedAt >= c.rowsAt) Object.assign(c, { rows, rowsAt: startedAt, rowsChanges: startedChanges });
        return rows;
      });
    });
    c.next = read;
    c.nextChanges = undefined;
    const done = () => {
      if (c.next === read) c.next = undefined;
    };
    read.then(done, done);
    return read;
  }

  /** True when `pick(row)` holds for a listed row; a miss in a cached list is read again (see readAgain). */
  async function listed(collection: Collection, pick: (row: Row) => boolean): Promise<boolean> {
    const c = cacheOf(collection);
    if (c.rowsAt !== 0 && Date.now() - c.rowsAt < cacheMs && c.rows.some(pick)) return true;
    return (await readAgain(collection, c)).some(pick);
  }

  const owns = async (collection: Collection, id: string | undefined) =>
    id !== undefined && (await listed(collection, (row) => row.id === id)) ? true : NOT_FOUND;

  const decide: AccountRule['decide'] = async ({ route, params, query, body }, { customerId, cardId }) => {

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
  return {
    decide,
    changed(collection) {
      cacheOf(collection).changes++;
    },
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
