/**
 * The events of `<wallet-credentials>` (STYLE.md 7: composed, past tense, typed, no secrets):
 * ids and credential types only.
 */
import type { CredentialType } from '../../core/types.ts';
import { WalletEvent, type ErrorDetail } from '../shared/events.ts';
import type { Operation } from './wallet-credentials.machine.ts';

export interface CredentialChangeDetail {
  accountId: string;
  /** `AuthMethod:<uuid>` */
  credentialId: string;
  type: CredentialType;
}

export interface SessionRevokedDetail {
  accountId: string;
  sessionId: string;
  /** True when it was this device's session (a logout). */
  current: boolean;
}

export class CredentialAddedEvent extends WalletEvent<CredentialChangeDetail> {
  constructor(detail: CredentialChangeDetail) {
    super('credential-added', detail);
  }
}

export class CredentialRevokedEvent extends WalletEvent<CredentialChangeDetail> {
  constructor(detail: CredentialChangeDetail) {
    super('credential-revoked', detail);
  }
}

export class SessionRevokedEvent extends WalletEvent<SessionRevokedDetail> {
  constructor(detail: SessionRevokedDetail) {
    super('session-revoked', detail);
  }
}

export interface WalletCredentialsErrorDetail extends ErrorDetail {
  /**
   * What failed: `load`, reading the lists (the first time, or again over the lists shown), or the
   * change asked for.
   */
  operation: 'load' | Operation['op'];
}

export class WalletCredentialsErrorEvent extends WalletEvent<WalletCredentialsErrorDetail> {
  constructor(detail: WalletCredentialsErrorDetail) {
    super('wallet-credentials-error', detail);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'credential-added': CredentialAddedEvent;
    'credential-revoked': CredentialRevokedEvent;
    'session-revoked': SessionRevokedEvent;
    'wallet-credentials-error': WalletCredentialsErrorEvent;
  }
}
