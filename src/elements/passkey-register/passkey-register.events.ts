/**
 * The events of `<passkey-register>` (STYLE.md 7: composed, past tense, typed, no secrets). The
 * detail names the new credential by its ids and the user's label; never the attestation.
 */
import { WalletEvent, type ErrorDetail } from '../shared/events.ts';

export interface PasskeyRegisteredDetail {
  accountId: string;
  /** The new AuthMethod (`AuthMethod:<uuid>`). */
  credentialId: string;
  nickname: string;
  /**
   * The passkey session that activated it (api.md step 4): absent in the event sent when the
   * passkey is saved, present in the second one, sent when activation finished.
   */
  sessionId?: string;
}

export class PasskeyRegisteredEvent extends WalletEvent<PasskeyRegisteredDetail> {
  constructor(detail: PasskeyRegisteredDetail) {
    super('passkey-registered', detail);
  }
}

export class PasskeyRegisterErrorEvent extends WalletEvent<ErrorDetail> {
  constructor(detail: ErrorDetail) {
    super('passkey-register-error', detail);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'passkey-registered': PasskeyRegisteredEvent;
    'passkey-register-error': PasskeyRegisterErrorEvent;
  }
}
