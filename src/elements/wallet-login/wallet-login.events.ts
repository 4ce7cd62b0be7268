/**
 * The events of `<wallet-login>`: small classes over the shared composed, bubbling WalletEvent,
 * named in the past tense (STYLE.md 7) and typed in GlobalEventHandlersEventMap. No detail carries
 * a key, code, token, stamp or payload: ids, a credential type and an expiry only.
 */
import type { CredentialType } from '../../core/types.ts';
import { WalletEvent, type ErrorDetail } from '../shared/events.ts';

export interface LoggedInDetail {
  accountId: string;
  sessionId: string;
  credentialType: CredentialType;
  /** ISO 8601. */
  expiresAt: string;
  /** How the session came: a login here, a session restored from storage, or a login by another tab or another element of this page. */
  source: 'login' | 'restored' | 'elsewhere';
}

export interface LoggedOutDetail {
  accountId: string;
  /**
   * A logout here, the session's expiry, the service ending it before its time (revoked from
   * another device or by the platform), a logout by another tab or another element of this page, or a
   * key storage lost.
   */
  reason: 'logout' | 'expired' | 'revoked' | 'elsewhere' | 'key-missing';
}

export interface SessionExpiringDetail {
  accountId: string;
  sessionId: string;
  credentialType: CredentialType;
  expiresAt: string;
}

export class WalletLoggedInEvent extends WalletEvent<LoggedInDetail> {
  constructor(detail: LoggedInDetail) {
    super('wallet-logged-in', detail);
  }
}

export class WalletLoggedOutEvent extends WalletEvent<LoggedOutDetail> {
  constructor(detail: LoggedOutDetail) {
    super('wallet-logged-out', detail);
  }
}

/** Sent before expiry when `no-auto-refresh` is set: call `refresh()` or let the session end. */
export class SessionExpiringEvent extends WalletEvent<SessionExpiringDetail> {
  constructor(detail: SessionExpiringDetail) {
    super('session-expiring', detail);
  }
}

export class WalletLoginErrorEvent extends WalletEvent<ErrorDetail> {
  constructor(detail: ErrorDetail) {
    super('wallet-login-error', detail);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'wallet-logged-in': WalletLoggedInEvent;
    'wallet-logged-out': WalletLoggedOutEvent;
    'session-expiring': SessionExpiringEvent;
    'wallet-login-error': WalletLoginErrorEvent;
  }
}
