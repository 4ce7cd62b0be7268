/**
 * Tells other tabs of the same origin that a wallet session began, was refreshed or ended, or that
 * the wallet's credentials or sessions changed, over a BroadcastChannel (HTML Living Standard,
 * "Broadcasting to other browsing contexts"). The key itself is shared through the key store
 * (IndexedDB is per origin); the message only says "look again".
 *
 * One channel object per page sends and receives, so a page never hears its own messages; the same
 * page's elements hear each other through `Wallet.subscribe` instead. Messages carry ids, a type and
 * an expiry, never a key, stamp or code. Where BroadcastChannel is missing (a server, an old
 * browser) everything here is a no-op.
 */
import type { SessionChange } from '../../core/session.ts';
import type { CredentialType } from '../../core/types.ts';
import { readsAnew } from '../../core/endpoints.ts';

export const SESSION_CHANNEL_NAME = 'wallet-elements-session';

export interface SessionMessage {
  type: SessionChange['type'];
  accountId: string;
  sessionId?: string;
  credentialType?: CredentialType;
  expiresAt?: string;
  /** On `ended`: the service ended the session before its time (SessionChange.revoked). */
  revoked?: true;
}

let channel: BroadcastChannel | undefined;
const listeners = new Set<(message: SessionMessage) => void>();

function open(): BroadcastChannel | undefined {
  if (!channel && typeof BroadcastChannel === 'function') {
    channel = new BroadcastChannel(SESSION_CHANNEL_NAME);
    channel.onmessage = ({ data: m }: MessageEvent<Partial<SessionMessage> | null>) => {
      if (typeof m?.accountId === 'string' && ['logged-in', 'refreshed', 'logged-out', 'ended', 'changed'].includes(m.type!)) {
        // What the lists hold changed there: a read asked for here from now on is not answered from before.
        readsAnew();
        for (const listener of [...listeners]) listener(m as SessionMessage);
      }
    };
  }
  return channel;
}

/**
 * Posts a session change to the other tabs, stripped to what is safe to share; `revoked` only where
 * it is said (a message without a session is the account id and its type, nothing else).
 */
export function broadcastSessionChange({ type, accountId, session, revoked }: SessionChange): void {
  open()?.postMessage(session ? { type, accountId, sessionId: session.sessionId, credentialType: session.credentialType, expiresAt: session.expiresAt } : revoked ? { type, accountId, revoked } : { type, accountId });
}

/** Listens for other tabs' session changes; returns the unsubscribe. */
export function onSessionBroadcast(listener: (message: SessionMessage) => void): () => void {
  open();
  listeners.add(listener);
  return () => listeners.delete(listener);
}
