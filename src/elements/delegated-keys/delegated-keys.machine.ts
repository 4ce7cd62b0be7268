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
import { ServiceError, WalletError } from '../../core/errors.ts';
import type { CreateDelegatedKeyRequest, DelegatedKey, SpendingLimit } from '../../core/types.ts';

export const NICKNAME_MAX = 256;
export const CURRENCY_PATTERN = /^[A-Z0-9]{3,16}$/;
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

export type FieldProblem = 'required' | 'too_long' | 'invalid_currency' | 'duplicate_currency' | 'invalid_amount' | 'too_many';

export interface FieldError {
  /** `nickname`, `limits`, or `limits.<row>.currencyCode` / `limits.<row>.maxPerTransaction`. */
  field: string;
  problem: FieldProblem;
}

export type FormVerdict = { ok: true; request: CreateDelegatedKeyRequest } | { ok: false; errors: FieldError[] };

/** Upper-cases and trims a typed currency code, the way the field shows it. */
export function normalizeCurrency(code: string): string {
  return code.trim().toUpperCase();
}

/**
 * Checks the form and builds the request body. Rows left entirely empty are ignored (an empty row
 * is "no limit", not an error); every other problem is reported against its field.
 */
export function validateKeyForm(form: KeyForm, target: { cardId: string; accountId: string }): FormVerdict {
  const errors: FieldError[] = [];
  const nickname = form.nickname.trim();
  if (nickname.length === 0) errors.push({ field: 'nickname', problem: 'required' });
  else if (nickname.length > NICKNAME_MAX) errors.push({ field: 'nickname', problem: 'too_long' });

  const limits: SpendingLimit[] = [];
  const firstRowOf = new Map<string, number>();
  const rows = form.limits;
  if (rows.length > MAX_LIMIT_ROWS) errors.push({ field: 'limits', problem: 'too_many' });
  rows.forEach((row, i) => {
    const code = normalizeCurrency(row.currencyCode);
    const amountText = row.maxPerTransaction.trim();
    if (code === '' && amountText === '') return;
    let rowOk = true;
    if (!CURRENCY_PATTERN.test(code)) {
      errors.push({ field: `limits.${i}.currencyCode`, problem: code === '' ? 'required' : 'invalid_currency' });
      rowOk = false;
    } else if (firstRowOf.has(code)) {
      // api.md: "A request with duplicate currency entries is rejected" - refused before sending.
      errors.push({ field: `limits.${i}.currencyCode`, problem: 'duplicate_currency' });
      rowOk = false;
    } else {
      firstRowOf.set(code, i);
    }
    const amount = /^[0-9]{1,16}$/.test(amountText) ? Number(amountText) : NaN;
    if (!(Number.isSafeInteger(amount) && amount >= 1)) {
      errors.push({ field: `limits.${i}.maxPerTransaction`, problem: amountText === '' ? 'required' : 'invalid_amount' });
      rowOk = false;
    }
    if (rowOk) limits.push({ currencyCode: code, maxPerTransaction: amount });
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
  /** No live wallet session (or its key vanished), or the service refused the signature. */
  'session_required',
  /** 403 */
  'forbidden',
  /** 429 */
  'rate_limited',
  /** 5xx */
  'server',
  'network',
  /** The signed retry could not complete (expired twice, too many signatures). */
  'retry_exhausted',
  'unexpected',
] as const;
export type DelegatedKeysErrorCode = (typeof DELEGATED_KEYS_ERROR_CODES)[number];

const RETRYABLE: ReadonlySet<DelegatedKeysErrorCode> = new Set(['rate_limited', 'server', 'network', 'retry_exhausted', 'unexpected']);

export function isRetryable(code: DelegatedKeysErrorCode): boolean {
  return RETRYABLE.has(code);
}

/** Maps what core threw to a code; `during` tells a create's 400 from a revoke's 400. */
export function errorCodeOf(error: unknown, during: 'load' | 'create' | 'revoke'): DelegatedKeysErrorCode {
  if (error instanceof ServiceError) {
    if (error.status === 409) return 'conflict';
    if (error.status === 404) return 'not_found';
    if (error.status === 400) return during === 'revoke' ? 'not_active' : during === 'create' ? 'invalid' : 'unexpected';
    // 401 on a signed call: the stamp was refused (session revoked or expired upstream).
    if (error.status === 401) return 'session_required';
    if (error.status === 403) return 'forbidden';
    if (error.status === 429) return 'rate_limited';
    if (error.status >= 500) return 'server';
    return 'unexpected';
  }
  if (error instanceof WalletError) {
    switch (error.code) {
      case 'session_expired':
      case 'key_missing':
        return 'session_required';
      case 'network':
        return 'network';
      case 'retry_exhausted':
        return 'retry_exhausted';
      case 'invalid_argument':
        return during === 'create' ? 'invalid' : 'unexpected';
      default:
        return 'unexpected';
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
  | { readonly kind: 'confirming-revoke'; readonly keyId: string }
  | { readonly kind: 'revoking'; readonly keyId: string };

export interface DelegatedKeysState {
  readonly list: ListState;
  readonly mode: Mode;
  /** The last operation that failed outside the form (revoke), for the alert region. */
  readonly failure?: DelegatedKeysErrorCode;
  /** What just happened, for the polite status region. */
  readonly notice?: { readonly kind: 'created' | 'revoked'; readonly nickname: string };
}

export type DelegatedKeysEvent =
  | { readonly type: 'load' }
  | { readonly type: 'loaded'; readonly keys: readonly DelegatedKey[] }
  | { readonly type: 'load-failed'; readonly code: DelegatedKeysErrorCode }
  | { readonly type: 'open-form' }
  | { readonly type: 'cancel' }
  /** The form's verdict: invalid keeps editing with field errors; valid moves to submitting. */
  | { readonly type: 'submit'; readonly verdict: FormVerdict }
  | { readonly type: 'created'; readonly key: DelegatedKey }
  | { readonly type: 'create-failed'; readonly code: DelegatedKeysErrorCode }
  | { readonly type: 'ask-revoke'; readonly keyId: string }
  | { readonly type: 'confirm-revoke' }
  | { readonly type: 'revoked'; readonly keyId: string; readonly at: string }
  | { readonly type: 'revoke-failed'; readonly code: DelegatedKeysErrorCode };

export const initialState: DelegatedKeysState = { list: { kind: 'loading' }, mode: { kind: 'browsing' } };

/** Active keys first, then newest first: the one that matters is on top. */
export function sortKeys(keys: readonly DelegatedKey[]): DelegatedKey[] {
  const rank = { ACTIVE: 0, PENDING: 1, REVOKED: 2 } as const;
  return [...keys].sort((a, b) => rank[a.status] - rank[b.status] || Date.parse(b.createdAt) - Date.parse(a.createdAt));
}

function keysOf(state: DelegatedKeysState): readonly DelegatedKey[] {
  return state.list.kind === 'ready' ? state.list.keys : [];
}

export function transition(state: DelegatedKeysState, event: DelegatedKeysEvent): DelegatedKeysState {
  const { mode } = state;
  switch (event.type) {
    case 'load':
      return { ...state, list: { kind: 'loading' } };
    case 'loaded':
      return { ...state, list: { kind: 'ready', keys: sortKeys(event.keys) } };
    case 'load-failed':
      return { ...state, list: { kind: 'failed', code: event.code } };
    case 'open-form':
      if (mode.kind !== 'browsing') return state;
      return { list: state.list, mode: { kind: 'editing', errors: [] } };
    case 'cancel':
      if (mode.kind === 'editing' || mode.kind === 'confirming-revoke') return { list: state.list, mode: { kind: 'browsing' } };
      return state;
    case 'submit':
      if (mode.kind !== 'editing') return state;
      if (!event.verdict.ok) return { ...state, mode: { kind: 'editing', errors: event.verdict.errors } };
      return { list: state.list, mode: { kind: 'submitting' } };
    case 'created': {
      if (mode.kind !== 'submitting') return state;
      const others = keysOf(state).filter((k) => k.id !== event.key.id);
      return {
        list: { kind: 'ready', keys: sortKeys([event.key, ...others]) },
        mode: { kind: 'browsing' },
        notice: { kind: 'created', nickname: event.key.nickname },
      };
    }
    case 'create-failed':
      if (mode.kind !== 'submitting') return state;
      return { list: state.list, mode: { kind: 'editing', errors: [], failure: event.code } };
    case 'ask-revoke': {
      if (mode.kind !== 'browsing') return state;
      const key = keysOf(state).find((k) => k.id === event.keyId);
      // Only an ACTIVE key can be revoked (reference.md: DELETE answers 400 otherwise).
      if (!key || key.status !== 'ACTIVE') return state;
      return { list: state.list, mode: { kind: 'confirming-revoke', keyId: event.keyId } };
    }
    case 'confirm-revoke':
      if (mode.kind !== 'confirming-revoke') return state;
      return { list: state.list, mode: { kind: 'revoking', keyId: mode.keyId } };
    case 'revoked': {
      if (mode.kind !== 'revoking' || mode.keyId !== event.keyId) return state;
      const key = keysOf(state).find((k) => k.id === event.keyId);
      const keys = keysOf(state).map((k) => (k.id === event.keyId ? { ...k, status: 'REVOKED' as const, updatedAt: event.at } : k));
      return {
        list: { kind: 'ready', keys: sortKeys(keys) },
        mode: { kind: 'browsing' },
        notice: { kind: 'revoked', nickname: key?.nickname ?? '' },
      };
    }
    case 'revoke-failed':
      if (mode.kind !== 'revoking') return state;
      return { list: state.list, mode: { kind: 'browsing' }, failure: event.code };
  }
}

/** Whether the card already has a key that blocks a new one (409 otherwise). */
export function hasActiveKey(state: DelegatedKeysState): boolean {
  return keysOf(state).some((k) => k.status === 'ACTIVE');
}
