/**
 * The proxy's route table and its strict parser of browser paths and query strings.
 *
 * Follows spec/api.md ("Endpoints") and spec/reference.md (credentials, sessions, wallet operations,
 * delegated keys, cards, agents): exactly the service routes the browser library needs, each with
 * its method, its typed path ids (`<Type>:<uuid>`, api.md "Identifiers") and its documented query
 * parameters. DESIGN.md "Security rules" asks for "only the routes of this interface" and validated
 * path ids.
 *
 * Deliberately does not: normalise or repair a path (a dot segment, a double or encoded slash, a
 * backslash or any percent-escape other than `%3A` is refused, never resolved), forward a query key
 * the route does not document, or forward a query string byte for byte (values are decoded,
 * validated and re-encoded so that nothing can be smuggled in between).
 */
import { isId } from '../core/shapes.ts';

export const ROUTE_NAMES = [
  'createCredential',
  'listCredentials',
  'deleteCredential',
  'credentialChallenge',
  'verifyCredential',
  'listSessions',
  'refreshSession',
  'deleteSession',
  'createDelegatedKey',
  'listDelegatedKeys',
  'getDelegatedKey',
  'deleteDelegatedKey',
  'revealCard',
  'exportWallet',
  'updateInternalAccount',
  'updateCustomer',
  'listAgentActions',
  'getAgentAction',
  /** Proxy-only: `POST {base}/webauthn/registration-options` (DESIGN.md wire format 6). */
  'webauthnRegistrationOptions',
] as const;
export type RouteName = (typeof ROUTE_NAMES)[number];

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** How the proxy authenticates the relayed call upstream (api.md "Authentication"). */
export type UpstreamAuth = 'basic' | 'agent-bearer' | 'local';

type QueryRule = (value: string) => boolean;

export interface RouteDef {
  name: RouteName;
  method: HttpMethod;
  /** Segments after the base; `{Type}` is a path id of that type, kept in `params` under `names[i]`. */
  segments: readonly string[];
  auth: UpstreamAuth;
  /** Documented query parameters and their value rules; anything else is refused. */
  query?: Readonly<Record<string, QueryRule>>;
  /** Takes no body and no wallet signature (reference.md "Cards"): either is refused, not relayed. */
  bare?: true;
}

/** `isId(value, type)`: a `<type>:<uuid>` identifier (api.md "Identifiers"), the core's own check. */
export { isId };

const idOf = (type: string): QueryRule => (v) => isId(v, type);
const AGENT_ACTION_STATUSES = new Set(['PENDING_APPROVAL', 'APPROVED', 'REJECTED', 'FAILED']);

/** api.md "GET /agents/me/actions": status enum, limit 1..100, cursor opaque. */
const agentActionQuery: Record<string, QueryRule> = {
  status: (v) => AGENT_ACTION_STATUSES.has(v),
  limit: (v) => /^[1-9][0-9]{0,2}$/.test(v) && Number(v) <= 100,
  // Opaque, but bounded and printable: a cursor is a token the service minted, not free text.
  cursor: (v) => v.length > 0 && v.length <= 1024 && /^[\x21-\x7e]+$/.test(v),
};

export const ROUTES: readonly RouteDef[] = [
  { name: 'createCredential', method: 'POST', segments: ['auth', 'credentials'], auth: 'basic' },
  { name: 'listCredentials', method: 'GET', segments: ['auth', 'credentials'], auth: 'basic', query: { accountId: idOf('InternalAccount') } },
  { name: 'deleteCredential', method: 'DELETE', segments: ['auth', 'credentials', '{AuthMethod}'], auth: 'basic' },
  { name: 'credentialChallenge', method: 'POST', segments: ['auth', 'credentials', '{AuthMethod}', 'challenge'], auth: 'basic' },
  { name: 'verifyCredential', method: 'POST', segments: ['auth', 'credentials', '{AuthMethod}', 'verify'], auth: 'basic' },
  { name: 'listSessions', method: 'GET', segments: ['auth', 'sessions'], auth: 'basic', query: { accountId: idOf('InternalAccount') } },
  { name: 'refreshSession', method: 'POST', segments: ['auth', 'sessions', '{Session}', 'refresh'], auth: 'basic' },
  { name: 'deleteSession', method: 'DELETE', segments: ['auth', 'sessions', '{Session}'], auth: 'basic' },
  { name: 'createDelegatedKey', method: 'POST', segments: ['auth', 'delegated-keys'], auth: 'basic' },
  {
    name: 'listDelegatedKeys',
    method: 'GET',
    segments: ['auth', 'delegated-keys'],
    auth: 'basic',
    query: { accountId: idOf('InternalAccount'), fundingSourceId: idOf('CardFundingSource') },
  },
  { name: 'getDelegatedKey', method: 'GET', segments: ['auth', 'delegated-keys', '{DelegatedKey}'], auth: 'basic' },
  { name: 'deleteDelegatedKey', method: 'DELETE', segments: ['auth', 'delegated-keys', '{DelegatedKey}'], auth: 'basic' },
  { name: 'revealCard', method: 'POST', segments: ['cards', '{Card}', 'reveal'], auth: 'basic', bare: true },
  { name: 'exportWallet', method: 'POST', segments: ['internal-accounts', '{InternalAccount}', 'export'], auth: 'basic' },
  { name: 'updateInternalAccount', method: 'PATCH', segments: ['internal-accounts', '{InternalAccount}'], auth: 'basic' },
  { name: 'updateCustomer', method: 'PATCH', segments: ['customers', '{Customer}'], auth: 'basic' },
  { name: 'listAgentActions', method: 'GET', segments: ['agents', 'me', 'actions'], auth: 'agent-bearer', query: agentActionQuery },
  { name: 'getAgentAction', method: 'GET', segments: ['agents', 'me', 'actions', '{AgentAction}'], auth: 'agent-bearer' },
  { name: 'webauthnRegistrationOptions', method: 'POST', segments: ['webauthn', 'registration-options'], auth: 'local' },
];

/** The outcome of matching a browser path: a route, or the error the proxy answers with. */
export type RouteMatch =
  | {
      kind: 'route';
      route: RouteDef;
      /** Path ids by name (`id` for the single id of every route). */
      params: Record<string, string>;
      /** Validated, decoded query values. */
      query: Record<string, string>;
      /** Service path plus re-encoded query, to append to the upstream base. */
      upstreamPath: string;
    }
  | { kind: 'not-found' }
  | { kind: 'method-not-allowed'; allow: HttpMethod[] }
  | { kind: 'invalid'; message: string; field?: string };

const SAFE_PATH = /^[A-Za-z0-9\-._~:/]*$/;
/** What an id segment looks like before its type is checked: `Word:...` (literal segments have no ':'). */
const ID_SHAPED = /^[A-Za-z]+:/;

/** The routes sharing one shape (their literal segments, ids as `{}`), by method. */
interface ShapeEntry {
  byMethod: Map<string, RouteDef>;
  allow: HttpMethod[];
}

/** A route's id segment, if any, and the id type it holds. */
interface IdSlot {
  index: number;
  type: string;
}

const shapeKey = (segments: readonly string[]) => segments.map((s) => (s.startsWith('{') ? '{}' : s)).join('/');

/** Built once: matching a path is one Map lookup instead of a scan of the table. */
const SHAPES = new Map<string, ShapeEntry>();
const ID_SLOTS = new Map<RouteDef, IdSlot | undefined>();
for (const route of ROUTES) {
  const key = shapeKey(route.segments);
  let entry = SHAPES.get(key);
  if (!entry) SHAPES.set(key, (entry = { byMethod: new Map(), allow: [] }));
  entry.byMethod.set(route.method, route);
  if (!entry.allow.includes(route.method)) entry.allow.push(route.method);
  const index = route.segments.findIndex((s) => s.startsWith('{'));
  // Every route has at most one path id (kept under `id`).
  if (route.segments.filter((s) => s.startsWith('{')).length > 1) throw new Error(`route ${route.name} has more than one path id`);
  const type = index === -1 ? '' : route.segments[index]!.slice(1, -1);
  ID_SLOTS.set(route, index === -1 ? undefined : { index, type });
}

/**
 * Splits and validates `rawPath` (the part of the request-target after the base, starting with `/`)
 * and `rawQuery` (after `?`, possibly empty) for `method`.
 */
export function matchRoute(method: string, rawPath: string, rawQuery: string | undefined): RouteMatch {
  // Refuse before matching so that an abusive path is a 400, never a 404 that invites probing.
  if (rawPath.includes('\\')) return { kind: 'invalid', message: 'Backslashes are not allowed in the path.' };
  if (rawPath.includes('//')) return { kind: 'invalid', message: 'Empty path segments are not allowed.' };
  // Ids contain ':', which some clients percent-encode (encodeURIComponent); that one escape is
  // undone. Any other escape (%2F, %2E, %5C, %00, ...) could change the path's meaning upstream.
  const path = rawPath.includes('%') ? rawPath.replace(/%3a/gi, ':') : rawPath;
  if (path.includes('%')) return { kind: 'invalid', message: 'Percent-encoded characters are not allowed in the path.' };
  if (!SAFE_PATH.test(path)) return { kind: 'invalid', message: 'The path contains characters that are not allowed.' };
  if (path === '' || path === '/') return { kind: 'not-found' };
  const segments = path.slice(1).split('/');
  // Literal segments equal, id segments at least shaped like `Word:...` (else the path is unknown).
  let key = '';
  let shaped = true;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    if (segment === '.' || segment === '..') return { kind: 'invalid', message: 'Dot segments are not allowed in the path.' };
    let part = segment;
    if (segment.includes(':')) {
      if (ID_SHAPED.test(segment)) part = '{}';
      else shaped = false;
    }
    key = i === 0 ? part : key + '/' + part;
  }
  if (segments[segments.length - 1] === '') return { kind: 'invalid', message: 'A trailing slash is not allowed in the path.' };

  const entry = shaped ? SHAPES.get(key) : undefined;
  if (!entry) return { kind: 'not-found' };
  const route = entry.byMethod.get(method);
  if (!route) return { kind: 'method-not-allowed', allow: [...entry.allow] };

  const params: Record<string, string> = {};
  const slot = ID_SLOTS.get(route);
  if (slot) {
    const value = segments[slot.index]!;
    if (!isId(value, slot.type)) return { kind: 'invalid', message: `The path id must be a ${slot.type} id (${slot.type}:<uuid>).`, field: 'id' };
    params.id = value;
  }

  if (rawQuery === undefined || rawQuery === '') return { kind: 'route', route, params, query: {}, upstreamPath: path };
  const parsed = parseQuery(rawQuery, route.query ?? {});
  if ('error' in parsed) return { kind: 'invalid', message: parsed.error, field: parsed.field };
  const encoded = new URLSearchParams(Object.entries(parsed.query)).toString();
  return { kind: 'route', route, params, query: parsed.query, upstreamPath: encoded ? `${path}?${encoded}` : path };
}

function parseQuery(
  rawQuery: string | undefined,
  rules: Readonly<Record<string, QueryRule>>,
): { query: Record<string, string> } | { error: string; field?: string } {
  const query: Record<string, string> = {};
  if (rawQuery === undefined || rawQuery === '') return { query };
  if (rawQuery.includes('?') || rawQuery.includes('#')) return { error: 'The query string is malformed.' };
  // URLSearchParams silently keeps a broken escape as text; refuse it instead.
  if (/%(?![0-9A-Fa-f]{2})/.test(rawQuery)) return { error: 'The query string has a malformed percent-escape.' };
  for (const pair of rawQuery.split('&')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) return { error: 'Every query parameter needs a name and a value.' };
    // Form-urlencoded rules ('+' is a space), as URLSearchParams in the browser writes them.
    const [[key, value]] = [...new URLSearchParams(pair)] as [[string, string]];
    if (!Object.hasOwn(rules, key)) return { error: `The query parameter "${key.slice(0, 64)}" is not accepted on this route.`, field: key.slice(0, 64) };
    if (Object.hasOwn(query, key)) return { error: `The query parameter "${key}" is repeated.`, field: key };
    if (!rules[key]!(value)) return { error: `The query parameter "${key}" is invalid.`, field: key };
    query[key] = value;
  }
  return { query };
}
