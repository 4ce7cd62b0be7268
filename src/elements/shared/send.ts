/**
 * The bare transport for a base path, for an element that needs a few endpoint functions
 * (core/cards.ts, core/endpoints.ts) and not the whole client (wallet.ts): the same requests, the
 * same errors. One per base path: nothing else of the configuration changes a transport.
 */
import { createHttp } from '../../core/http.ts';
import type { Send } from '../../core/signed-retry.ts';
import { walletConfig } from './config.ts';

const senders = new Map<string, Send>();

export function sendFor(apiBase?: string | null): Send {
  const base = apiBase || walletConfig().apiBase;
  let send = senders.get(base);
  if (!send) senders.set(base, (send = createHttp({ baseUrl: base })));
  return send;
}
