/**
 * The events <delegated-keys> dispatches, as small classes (bubbling, composed). Details carry the
 * key's public metadata only (the service never returns a delegated key's private part).
 */
import { WalletEvent, type ErrorDetail } from '../shared/events.ts';
import type { DelegatedKey } from '../../core/types.ts';
import type { DelegatedKeysErrorCode } from './delegated-keys.machine.ts';

/** A key was created through the signed retry and is ACTIVE. */
export class DelegatedKeyCreatedEvent extends WalletEvent<{ key: DelegatedKey }> {
  constructor(key: DelegatedKey) {
    super('delegated-key-created', { key });
  }
}

/** A key was revoked. */
export class DelegatedKeyRevokedEvent extends WalletEvent<{ keyId: string }> {
  constructor(keyId: string) {
    super('delegated-key-revoked', { keyId });
  }
}

export interface DelegatedKeysErrorDetail extends ErrorDetail {
  code: DelegatedKeysErrorCode;
  /** What was being done: listing, creating or revoking. */
  operation: 'load' | 'create' | 'revoke';
}

export class DelegatedKeysErrorEvent extends WalletEvent<DelegatedKeysErrorDetail> {
  constructor(detail: DelegatedKeysErrorDetail) {
    super('delegated-keys-error', detail);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'delegated-key-created': DelegatedKeyCreatedEvent;
    'delegated-key-revoked': DelegatedKeyRevokedEvent;
    'delegated-keys-error': DelegatedKeysErrorEvent;
  }
}
