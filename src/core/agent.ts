/**
 * An agent's own actions (api.md "GET {base_url}/agents/me/actions", reference.md "Agents"):
 * an iterator over every cursor page, and a poller for approval decisions with exponential backoff.
 *
 * The agent's access token is passed per call and kept only in the closure of a running poller;
 * it is never stored, logged or put into an error. Cursors are opaque (reference.md).
 * Not here: approving actions (a platform-side, Basic-auth call the browser never makes).
 */
import { WalletError, isServiceError } from './errors.ts';
import { later } from './clock.ts';
import type { IterateAgentActionsOptions, WalletClient } from './client.ts';
import type { AgentAction, AgentActionStatus } from './types.ts';

/** The one client method the iterator and the poller use: a WalletClient, or that endpoint alone. */
export type AgentActionSource = Pick<WalletClient, 'iterateAgentActions'>;

/** Every action of the agent over all pages, in the service's order. */
export function iterateAgentActions(
  options: { client: AgentActionSource } & IterateAgentActionsOptions,
): AsyncGenerator<AgentAction, void, undefined> {
  const { client, ...rest } = options;
  return client.iterateAgentActions(rest);
}

export interface PollAgentActionsOptions {
  client: AgentActionSource;
  agentToken: string;
  status?: AgentActionStatus;
  /** Stops the poller; the returned promise then resolves. Required: a poller must be stoppable. */
  signal: AbortSignal;
  /**
   * Called with the full list on the first poll, whenever an action appears, leaves or changes, and
   * on the first good poll after a failed one. Answering `false` (or a promise of it) asks for the
   * same list again at the next poll (which, the list unchanged, still backs off): what it was
   * needed for could not be done this time. A
   * rejection does too, and the Retry-After of its error (a 429 on a read made for the list) holds
   * the next poll back that long.
   */
  onChange: (actions: AgentAction[]) => unknown;
  /**
   * Called on a failed poll (the poller keeps going, backing off). 401 stops it: the token is no good,
   * or (details.reason AUTHORIZE, core/errors.ts asksLogin) the proxy's authorize wants the site's sign-in first.
   */
  onError?: (error: unknown) => void;
  /** First delay and the delay after a change. Default 2000 ms. */
  minDelayMs?: number;
  /** The backoff's ceiling. Default 60000 ms. */
  maxDelayMs?: number;
  /** Page size per request (1-100). */
  limit?: number;
  /** No poll before this time (ms since the epoch): the end of a Retry-After an earlier poller was given. */
  notBefore?: number;
}

/** What makes two lists equal for the poller: each action's id, status and updatedAt, in order. */
function fingerprint(actions: AgentAction[]): string {
  return JSON.stringify(actions.map((a) => [a.id, a.status, a.updatedAt ?? '', a.rejectionReason ?? '', a.transaction?.status ?? '']));
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = later(done, ms);
    signal.addEventListener('abort', done);
    if (signal.aborted) done();
  });
}

/**
 * Polls until `signal` aborts. The delay doubles after each unchanged or failed poll, from
 * minDelayMs up to maxDelayMs, and falls back to minDelayMs after a change; a Retry-After
 * (429/503) is honoured as a floor. Resolves on abort; rejects only on 401 (a bad or expired
 * agent token: polling on would not help) or a malformed option.
 */
export async function pollAgentActions(options: PollAgentActionsOptions): Promise<void> {
  const { client, agentToken, status, signal, onChange, onError, limit } = options;
  const minDelay = options.minDelayMs ?? 2000;
  const maxDelay = options.maxDelayMs ?? 60000;
  if (!(signal instanceof AbortSignal) || typeof onChange !== 'function' || !(minDelay > 0) || !(maxDelay >= minDelay)) {
    throw new WalletError('invalid_argument', 'pollAgentActions needs a signal, onChange and 0 < minDelayMs <= maxDelayMs.');
  }

  let last: string | undefined;
  /** The listener asked for the list again. */
  let again = false;
  let delay = minDelay;
  /** No poll before this time (a Retry-After). */
  let until = options.notBefore ?? 0;
  const hold = (e: unknown) => {
    if (isServiceError(e)) until = Date.now() + (e.retryAfter ?? 0) * 1000;
  };
  for (;;) {
    while (until > Date.now() && !signal.aborted) await sleep(until - Date.now(), signal);
    if (signal.aborted) return;
    try {
      const actions: AgentAction[] = [];
      for await (const a of client.iterateAgentActions({ agentToken, signal, status, limit })) actions.push(a);
      const fp = fingerprint(actions);
      const changed = fp !== last;
      last = fp;
      // A list asked for again (`false`) that has not changed still backs off: what the listener
      // waits for (an execution in progress, a read that failed) may take a while.
      delay = changed ? minDelay : Math.min(delay * 2, maxDelay);
      if (changed || again) {
        again = false;
        const retry = (done: unknown) => {
          if (done === false && last === fp) again = true;
        };
        void Promise.resolve(onChange(actions)).then(retry, (e) => (retry(false), hold(e)));
      }
    } catch (e) {
      if (signal.aborted) return;
      if (isServiceError(e) && e.status === 401) throw e;
      // The next good poll is delivered whatever it holds: the listener learns the trouble is over.
      last = undefined;
      onError?.(e);
      delay = Math.min(delay * 2, maxDelay);
      hold(e);
    }
    await sleep(delay, signal);
  }
}
