/**
 * The steps of <delegated-keys> as a pure state machine, and the rules of the "new key" form.
 * No DOM, no network: the element feeds events and renders the state.
 *
 * Rules from api.md "POST {base_url}/auth/delegated-keys" and reference.md "Delegated keys":
 * nickname 1..256; spendingLimits optional, at most one entry per currency (duplicates are refused
 * here, before anything is sent), currencyCode /^[A-Z0-9]{3,16}$/, maxPerTransaction an integer >= 1
 * in the currency's smallest unit; limits are immutable ("revoke and create a new one"); only an
 * ACTIVE key can be revoked (DELETE answers 400 otherwise); 409 when the card funding source already
 * has an ACTIVE key.
 *
 * Deliberately not here: the signed retry (core/client.ts, two signatures) and the session key
 * (core/session.ts). The machine only knows ids, nicknames, statuses and limits.
 */
import { asksLogin, ServiceError, WalletError } from '../../core/errors.ts';
import { LoadFailed } from '../shared/load.ts';
import type { CreateDelegatedKeyRequest, DelegatedKey, SpendingLimit } from '../../core/types.ts';
import { asciiDigits } from '../shared/code-input.ts';

export const NICKNAME_MAX = 256;
/** A form with more rows than this is refused: one per currency, and nobody sets 50. */
export const MAX_LIMIT_ROWS = 20;

/** One row of the form as typed: strings, validated by `validateKeyForm`. */
export interface LimitRow {
  currencyCode: string;
  /** Smallest currency unit (cents for USD), as typed. */
  maxPerTransaction: string;
}

export interface KeyForm {
  nickname: string;
  limits: LimitRow[];
}

/** `too_large`: an amount beyond 2^53 - 1, which JSON does not carry exactly (the service refuses it). */
export type FieldProblem = 'required' | 'too_long' | 'invalid_currency' | 'duplicate_currency' | 'invalid_amount' | 'too_large' | 'too_many';

export interface FieldError {
  /** `nickname`, `limits`, or `limits.<row>.currencyCode` / `limits.<row>.maxPerTransaction`. */
  field: string;
  problem: FieldProblem;
}

export type FormVerdict = { ok: true; request: CreateDelegatedKeyRequest } | { ok: false; errors: FieldError[] };

/**
 * A row as the service takes it: the code trimmed and upper-cased (full-width letters and digits
 * as ASCII, NFKC), the amount an integer (typed in ASCII, Arabic, Persian or full-width digits,
 * bidi marks dropped).
 * `ok` for each half tells whether it is valid (currencyCode /^[A-Z0-9]{3,16}$/, amount 1 or more).
 */
function parseRow(row: LimitRow) {
  const currencyCode = row.currencyCode.normalize('NFKC').trim().toUpperCase();
  // A number copied from Arabic text carries bidi controls (RLM, LRM, ALM, isolates): invisible, they go.
  const amountText = asciiDigits(row.maxPerTransaction.replace(/\p{Bidi_C}/gu, '').trim());
  const maxPerTransaction = /^[0-9]+$/.test(amountText) ? Number(amountText) : 0;
  return {
    currencyCode,
    amountText,
    maxPerTransaction,
    codeOk: /^[A-Z0-9]{3,16}$/.test(currencyCode),
    amountOk: Number.isSafeInteger(maxPerTransaction) && maxPerTransaction >= 1,
  };
}

/** The limit a row stands for when both halves are valid (the form shows it as an amount). */
export function limitOf(row: LimitRow): SpendingLimit | undefined {
  const { currencyCode, maxPerTransaction, codeOk, amountOk } = parseRow(row);
  return codeOk && amountOk ? { currencyCode, maxPerTransaction } : undefined;
}

/**
 * Checks the form and builds the request body. Rows left entirely empty are ignored (an empty row
 * is "no limit", not an error); every other problem is reported against its field.
 */
export function validateKeyForm(form: KeyForm, target: { cardId: string; accountId: string }): FormVerdict {
  const errors: FieldError[] = [];
  const error = (field: string, problem: FieldProblem) => errors.push({ field, problem });
  const nickname = form.nickname.trim();
  if (!nickname) error('nickname', 'required');
  else if (nickname.length > NICKNAME_MAX) error('nickname', 'too_long');
  if (form.limits.length > MAX_LIMIT_ROWS) error('limits', 'too_many');

  const limits: SpendingLimit[] = [];
  const seen = new Set<string>();
  form.limits.forEach((row, i) => {
    const { currencyCode, amountText, maxPerTransaction, codeOk, amountOk } = parseRow(row);
    if (!currencyCode && !amountText) return;
    const field = `limits.${i}.`;
    // api.md: "A request with duplicate currency entries is rejected" - refused before sending.
    const codeProblem = !codeOk ? (currencyCode ? 'invalid_currency' : 'required') : seen.has(currencyCode) ? 'duplicate_currency' : undefined;
    if (codeProblem) error(field + 'currencyCode', codeProblem);
    if (!amountOk) error(field + 'maxPerTransaction', !amountText ? 'required' : maxPerTransaction ? 'too_large' : 'invalid_amount');
    seen.add(currencyCode);
    if (!codeProblem && amountOk) limits.push({ currencyCode, maxPerTransaction });
  });

  if (errors.length > 0) return { ok: false, errors };
  const request: CreateDelegatedKeyRequest = { cardId: target.cardId, internalAccountId: target.accountId, nickname };
  if (limits.length > 0) request.spendingLimits = limits;
  return { ok: true, request };
}

/** The `code` of `delegated-keys-error`; each has a sentence in the element's strings. */
export const DELEGATED_KEYS_ERROR_CODES = [
  /** 409: the card funding source already has an ACTIVE key. */
  'conflict',
  /** 404: unknown card, account or binding (or key). */
  'not_found',
  /** 400 on create: the service refused the body. */
  'invalid',
  /** 400 on revoke: the key is not ACTIVE any more. */
  'not_active',
  /**
   * No live wallet session (or its key vanished), the service refused a create's signature, or the
   * site refused the call for want of its own login (the proxy's 401 with `details.reason` AUTHORIZE).
   */
  'session_required',
  /** 401 UNAUTHORIZED without details: the page's API credentials with the service (the proxy's) were refused. */
  'unauthorized',
  /** 403 */
  'forbidden',
  /** 429 */
  'rate_limited',
  /** 5xx */
  'server',
  'network',
  /** Part of the element's code (loaded on demand) did not arrive, asked for twice: a reload of the page loads it (shared/load.ts). */
  'load_failed',
  /** The signed retry could not complete (expired twice, too many signatures). */
  'retry_exhausted',
  /**
   * The page's settings do not fit the service: an `api-base` where no proxy is mounted (the page's
   * own server answered; the console names the base), or one refused for its origin (nothing sent).
   * Retrying cannot help.
   */
  'misconfigured',
  'unexpected',
] as const;
export type DelegatedKeysErrorCode = (typeof DELEGATED_KEYS_ERROR_CODES)[number];

/** Failures worth the same request again ("Try again"); the others need a change first. */
export function isRetryable(code: DelegatedKeysErrorCode): boolean {
  return ['rate_limited', 'server', 'network', 'retry_exhausted', 'unexpected'].includes(code);
}

/** The codes of the service's answers that mean the same whatever was being done. */
const BY_STATUS: Record<number, DelegatedKeysErrorCode> = {
  409: 'conflict',
  404: 'not_found',
  403: 'forbidden',
  429: 'rate_limited',
};

/** Maps what core threw to a code; `during` tells a create's 400 from a revoke's 400. */
export function errorCodeOf(error: unknown, during: 'load' | 'create' | 'revoke'): DelegatedKeysErrorCode {
  if (error instanceof LoadFailed) return error.code;
  const refused = during === 'revoke' ? 'not_active' : during === 'create' ? 'invalid' : 'unexpected';
  if (error instanceof ServiceError) {
    // The shared reading of a 401 (core/errors.ts asksLogin): a refused signature, or the site's own
    // refusal (AUTHORIZE), asks for a login; a plain UNAUTHORIZED is the page's API credentials refused.
    if (error.status === 401) return asksLogin(error.code, error.details) ? 'session_required' : 'unauthorized';
    return BY_STATUS[error.status] ?? (error.status === 400 ? refused : error.status >= 500 ? 'server' : 'unexpected');
  }
  if (error instanceof WalletError) {
    switch (error.code) {
      case 'session_expired':
      case 'key_missing':
        return 'session_required';
      case 'network':
      case 'retry_exhausted':
      case 'misconfigured':
        return error.code;
      case 'invalid_argument':
        return during === 'create' ? 'invalid' : 'unexpected';
    }
  }
  return 'unexpected';
}

export type ListState =
  | { readonly kind: 'loading' }
  | { readonly kind: 'ready'; readonly keys: readonly DelegatedKey[] }
  | { readonly kind: 'failed'; readonly code: DelegatedKeysErrorCode };

export type Mode =
  | { readonly kind: 'browsing' }
  | { readonly kind: 'editing'; readonly errors: readonly FieldError[]; readonly failure?: DelegatedKeysErrorCode }
  | { readonly kind: 'submitting' }
  /** `nickname`: the key's, for saying it was revoked when the list is loading again by then. */
  | { readonly kind: 'confirming-revoke'; readonly keyId: string; readonly nickname: string }
  | { readonly kind: 'revoking'; readonly keyId: string; readonly nickname: string };

export interface DelegatedKeysState {
  readonly list: ListState;
  readonly mode: Mode;
  /** The last operation that failed outside the form (revoke), for the alert region. */
  readonly failure?: DelegatedKeysErrorCode;
  /** What just happened, for the polite status region. */
  readonly notice?: { readonly kind: 'created' | 'revoked'; readonly nickname: string };
}

export type DelegatedKeysEvent =
  /** `anew`: another card or account, or the element back on the page: nothing of before stays open. */
  | { readonly type: 'load'; readonly anew?: boolean }
  | { readonly type: 'loaded'; readonly keys: readonly DelegatedKey[] }
  | { readonly type: 'load-failed' | 'create-failed' | 'revoke-failed'; readonly code: DelegatedKeysErrorCode }
  | { readonly type: 'open-form' }
  | { readonly type: 'cancel' }
  /** The form's verdict: invalid keeps editing with field errors; valid moves to submitting. */
  | { readonly type: 'submit'; readonly verdict: FormVerdict }
  /**
   * The verdict after an edit: an error shown goes once its field is right (no new error before a
   * submit). `removed`: the limit row taken out, whose errors go, those of the rows after it moving up.
   */
  | { readonly type: 'edited'; readonly verdict: FormVerdict; readonly removed?: number }
  | { readonly type: 'created'; readonly key: DelegatedKey }
  | { readonly type: 'ask-revoke'; readonly keyId: string }
  | { readonly type: 'confirm-revoke' }
  /** `keys`: the card's list read again, when the key was found revoked elsewhere (the list then shows it). */
  | { readonly type: 'revoked'; readonly keyId: string; readonly at: string; readonly keys?: readonly DelegatedKey[] }
  /**
   * The list as read after a create or revoke failed with an outcome the service may have carried
   * out (a lost answer, a 5xx, a 409 from a key made elsewhere), showing it did not: read before
   * the failure is said (a change it shows done is `created` or `revoked` instead).
   */
  | { readonly type: 'rechecked'; readonly keys: readonly DelegatedKey[] };

/** The create that failed, as the list can tell it: by its nickname and limits, among keys not listed before. */
export type Attempt = Readonly<Pick<CreateDelegatedKeyRequest, 'nickname' | 'spendingLimits'>> & { readonly before: readonly string[] };

/** Failures after which the service may hold the change anyway, or a key made elsewhere: the list is loaded again. */
export function worthRecheck(code: DelegatedKeysErrorCode): boolean {
  return ['conflict', 'not_active', 'not_found', 'server', 'network', 'unexpected'].includes(code);
}

/**
 * The key the failed create made, if the list read again shows it: an ACTIVE key with the nickname
 * and limits sent that was not listed before the create (a card holds one ACTIVE key, so it is this
 * one; another tab's, made meanwhile under the same nickname, has its own limits or is the same key
 * as far as anything sent can tell). Limits compare as sets: one per currency, in any order.
 */
export function settledMeanwhile(attempt: Attempt, keys: readonly DelegatedKey[]): DelegatedKey | undefined {
  const sent = attempt.spendingLimits ?? [];
  return keys.find(
    (k) =>
      k.status === 'ACTIVE' &&
      k.nickname === attempt.nickname &&
      !attempt.before.includes(k.id) &&
      (k.spendingLimits ?? []).length === sent.length &&
      sent.every((l) => k.spendingLimits!.some((m) => m.currencyCode === l.currencyCode && m.maxPerTransaction === l.maxPerTransaction)),
  );
}

export const initialState: DelegatedKeysState = { list: { kind: 'loading' }, mode: { kind: 'browsing' } };

/** Active keys first, then newest first: the one that matters is on top. */
export function sortKeys(keys: readonly DelegatedKey[]): DelegatedKey[] {
  const rank = { ACTIVE: 0, PENDING: 1, REVOKED: 2 } as const;
  return [...keys].sort((a, b) => rank[a.status] - rank[b.status] || Date.parse(b.createdAt) - Date.parse(a.createdAt));
}

const BROWSING: Mode = { kind: 'browsing' };

export function transition(state: DelegatedKeysState, event: DelegatedKeysEvent): DelegatedKeysState {
  const { list, mode } = state;
  const keys = list.kind === 'ready' ? list.keys : [];
  switch (event.type) {
    case 'load':
      return event.anew ? initialState : { ...state, list: { kind: 'loading' } };
    case 'loaded':
      return { ...state, list: { kind: 'ready', keys: sortKeys(event.keys) } };
    case 'load-failed':
      return { ...state, list: { kind: 'failed', code: event.code } };
    case 'open-form':
      return mode.kind === 'browsing' ? { list, mode: { kind: 'editing', errors: [] } } : state;
    case 'cancel':
      return mode.kind === 'editing' || mode.kind === 'confirming-revoke' ? { list, mode: BROWSING } : state;
    case 'submit':
      if (mode.kind !== 'editing') return state;
      return { list, mode: event.verdict.ok ? { kind: 'submitting' } : { kind: 'editing', errors: event.verdict.errors } };
    case 'edited': {
      if (mode.kind !== 'editing' || mode.errors.length === 0) return state;
      const { removed = NaN } = event;
      const shown = mode.errors.map(({ field }) => field.replace(/\d+/, (row) => (+row > removed ? `${+row - 1}` : +row === removed ? '-' : row)));
      const errors = event.verdict.ok ? [] : event.verdict.errors.filter((e) => shown.includes(e.field));
      const same = errors.length === mode.errors.length && errors.every((e, i) => e.field === mode.errors[i]!.field && e.problem === mode.errors[i]!.problem);
      return same ? state : { list, mode: { ...mode, errors } };
    }
    case 'created':
      if (mode.kind !== 'submitting') return state;
      return {
        // A list still loading (a refresh meanwhile) or failed stays so: the key shows with the card's others, never alone.
        list: list.kind === 'ready' ? { kind: 'ready', keys: sortKeys([event.key, ...keys.filter((k) => k.id !== event.key.id)]) } : list,
        mode: BROWSING,
        notice: { kind: 'created', nickname: event.key.nickname },
      };
    case 'create-failed':
      return mode.kind === 'submitting' ? { list, mode: { kind: 'editing', errors: [], failure: event.code } } : state;
    case 'ask-revoke': {
      // Only an ACTIVE key can be revoked (reference.md: DELETE answers 400 otherwise).
      const key = keys.find((k) => k.id === event.keyId && k.status === 'ACTIVE');
      if (mode.kind !== 'browsing' || !key) return state;
      return { list, mode: { kind: 'confirming-revoke', keyId: key.id, nickname: key.nickname } };
    }
    case 'confirm-revoke':
      return mode.kind === 'confirming-revoke' ? { list, mode: { ...mode, kind: 'revoking' } } : state;
    case 'revoked':
      if (mode.kind !== 'revoking' || mode.keyId !== event.keyId) return state;
      return {
        list: event.keys
          ? { kind: 'ready', keys: sortKeys(event.keys) }
          : list.kind === 'ready'
            ? { kind: 'ready', keys: sortKeys(keys.map((k) => (k.id === event.keyId ? { ...k, status: 'REVOKED' as const, updatedAt: event.at } : k))) }
            : list,
        mode: BROWSING,
        notice: { kind: 'revoked', nickname: mode.nickname },
      };
    case 'revoke-failed':
      return mode.kind === 'revoking' ? { list, mode: BROWSING, failure: event.code } : state;
    case 'rechecked':
      return { ...state, list: { kind: 'ready', keys: sortKeys(event.keys) } };
  }
}

/** Whether the card already has a key that blocks a new one (409 otherwise). */
export function hasActiveKey(state: DelegatedKeysState): boolean {
  return state.list.kind === 'ready' && state.list.keys.some((k) => k.status === 'ACTIVE');
}
