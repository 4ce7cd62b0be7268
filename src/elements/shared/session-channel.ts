/**
 * Tells other tabs of the same origin that a wallet session began, was refreshed or ended, over a
 * BroadcastChannel (HTML Living Standard, "Broadcasting to other browsing contexts"). The key itself
 * is shared through the key store (IndexedDB is per origin); the message only says "look again".
 *
 * One channel object per page sends and receives, so a page never hears its own messages; the same
 * page's elements hear each other through `Wallet.subscribe` instead. Messages carry ids, a type and
 * an expiry, never a key, stamp or code. Where BroadcastChannel is missing (a server, an old
 * browser) everything here is a no-op.
 */
import type { SessionChange } from '../../core/session.ts';
import type { CredentialType } from '../../core/types.ts';

export const SESSION_CHANNEL_NAME = 'wallet-elements-session';

export interface SessionMessage {
  type: SessionChange['type'];
  accountId: string;
  sessionId?: string;
  credentialType?: CredentialType;
  expiresAt?: string;
}

let channel: BroadcastChannel | null | undefined;
const listeners = new Set<(message: SessionMessage) => void>();

function open(): BroadcastChannel | null {
  if (channel !== undefined) return channel;
  if (typeof BroadcastChannel !== 'function') return (channel = null);
  channel = new BroadcastChannel(SESSION_CHANNEL_NAME);
  channel.onmessage = (e: MessageEvent) => {
    const m = e.data as Partial<SessionMessage> | null;
    if (!m || typeof m.accountId !== 'string' || !['logged-in', 'refreshed', 'logged-out'].includes(String(m.type))) return;
    for (const l of [...listeners]) l(m as SessionMessage);
  };
  return channel;
}

/** Posts a session change to the other tabs, stripped to what is safe to share. */
export function broadcastSessionChange(change: SessionChange): void {
  const message: SessionMessage = { type: change.type, accountId: change.accountId };
  if (change.session) {
    message.sessionId = change.session.sessionId;
    message.credentialType = change.session.credentialType;
    message.expiresAt = change.session.expiresAt;
  }
  open()?.postMessage(message);
}

/** Listens for other tabs' session changes; returns the unsubscribe. */
export function onSessionBroadcast(listener: (message: SessionMessage) => void): () => void {
  open();
  listeners.add(listener);
  return () => listeners.delete(listener);
}
