/**
 * The agent action poller (src/core/agent.ts) against a scripted loopback server: exponential
 * backoff while nothing changes, back to the minimum after a change, Retry-After as a floor, a stop
 * on 401 and on abort (no request after it).
 */
import { describe, it, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { createClient } from '../../../src/core/client.ts';
import { pollAgentActions, type PollAgentActionsOptions } from '../../../src/core/agent.ts';
import { ServiceError } from '../../../src/core/errors.ts';
import type { AgentAction } from '../../../src/core/types.ts';
import { startScriptedServer, type ScriptedServer } from './scripted-server.ts';

const action = (status: string) => ({
  id: 'AgentAction:00000000-0000-4000-8000-000000000001',
  agentId: 'Agent:00000000-0000-4000-8000-000000000001',
  customerId: 'Customer:00000000-0000-4000-8000-000000000001',
  platformCustomerId: 'p',
  status,
  type: 'EXECUTE_QUOTE',
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: status === 'PENDING_APPROVAL' ? '2026-01-01T00:00:00Z' : '2026-01-01T00:01:00Z',
});

/** Resolves once `check` holds (rejects after `ms`: a poller that stopped polling). */
async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  for (const start = Date.now(); !check(); await new Promise((r) => setTimeout(r, 10))) {
    if (Date.now() - start > ms) throw new Error(`timed out waiting for ${what}`);
  }
}

/**
 * The delays the poller (src/core/agent.ts) asks of setTimeout, in order, while watched: its own
 * calls only (directly or through core/clock.ts `later`), each timer still set as asked. What it
 * waits is then told apart from how late a busy machine runs the timers and answers.
 */
function watchDelays(): { delays: number[]; restore: () => void } {
  const original = globalThis.setTimeout;
  const delays: number[] = [];
  globalThis.setTimeout = ((fn: (...a: unknown[]) => void, ms?: number, ...rest: unknown[]) => {
    // The caller, or the caller of core/clock.ts `later` through which the poller sets its timers.
    const [caller, next] = new Error().stack?.split('\n').slice(2) ?? [];
    if ((caller?.includes('/src/core/clock.ts') ? next : caller)?.includes('/src/core/agent.ts')) delays.push(ms ?? 0);
    return original(fn, ms, ...rest);
  }) as typeof setTimeout;
  return { delays, restore: () => void (globalThis.setTimeout = original) };
}

describe('pollAgentActions', () => {
  let server: ScriptedServer;
  const times: number[] = [];
  before(async () => {
    server = await startScriptedServer();
  });
  after(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
    times.length = 0;
  });

  /** The poller against the scripted server, with the agent token 't'. */
  const poll = (options: Omit<PollAgentActionsOptions, 'client' | 'agentToken'>) =>
    pollAgentActions({ client: createClient({ baseUrl: server.url }), agentToken: 't', ...options });

  /** The server answers every poll with one action waiting for approval, noting when (`times`). */
  const answerOnePending = () =>
    server.setScript(() => {
      times.push(performance.now());
      return { status: 200, body: { data: [action('PENDING_APPROVAL')], hasMore: false } };
    });

  it('backs off exponentially while nothing changes, resets after a change, and stops on abort', async () => {
    let status = 'PENDING_APPROVAL';
    const answered: string[] = [];
    server.setScript(() => {
      times.push(performance.now());
      answered.push(status);
      return { status: 200, body: { data: [action(status)], hasMore: false, totalCount: 1 } };
    });
    const controller = new AbortController();
    const changes: AgentAction[][] = [];
    const watch = watchDelays();
    let done: Promise<void>;
    try {
      done = poll({
        signal: controller.signal,
        minDelayMs: 50,
        maxDelayMs: 200,
        onChange: (a) => changes.push(a),
      });
      // Counted in polls, not in time: a busy machine makes fewer of them in a given time.
      await until(() => times.length >= 6, 'six polls before the change');
      status = 'APPROVED';
      const firstToSee = times.length;
      await until(() => changes.length === 2 && times.length >= firstToSee + 3, 'two polls after the change was seen');
      controller.abort();
      await done;
    } finally {
      watch.restore();
    }
    const afterAbort = server.requests.length;
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(server.requests.length, afterAbort, 'no request after abort');

    assert.equal(changes.length, 2);
    assert.equal(changes[0]![0]!.status, 'PENDING_APPROVAL');
    assert.equal(changes[1]![0]!.status, 'APPROVED');
    // A change (the first answer) sets the delay to the minimum; each unchanged poll doubles it, up
    // to the ceiling; the poll that saw the change is followed by the minimum again. The delays as
    // asked for, one after each poll (a busy machine only runs them late).
    const { delays } = watch;
    const saw = answered.indexOf('APPROVED');
    assert.deepEqual(delays.slice(0, 5), [50, 100, 200, 200, 200], `delays: ${delays.join(',')}`);
    assert.ok(Math.max(...delays) <= 200, `never above the ceiling: ${delays.join(',')}`);
    assert.deepEqual(delays.slice(saw, saw + 2), [50, 100], `delays after the change, seen by poll ${saw}: ${delays.join(',')}`);
    // And waited for: the gaps between polls are at least those delays.
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    assert.ok(gaps[0]! >= 45, `first gap: ${gaps.join(',')}`);
    assert.ok(gaps[1]! >= 95, `second gap: ${gaps.join(',')}`);
    assert.ok(gaps[2]! >= 195, `third gap: ${gaps.join(',')}`);
  });

  it('honours Retry-After as a floor on errors and reports them', async () => {
    let n = 0;
    server.setScript(() => {
      times.push(performance.now());
      n += 1;
      return n === 1
        ? { status: 429, headers: { 'retry-after': '1' }, body: { status: 429, code: 'RATE_LIMITED', message: 'Slow down.' } }
        : { status: 200, body: { data: [], hasMore: false } };
    });
    const controller = new AbortController();
    const errors: unknown[] = [];
    let changed = 0;
    const done = poll({
      signal: controller.signal,
      minDelayMs: 20,
      maxDelayMs: 40,
      onError: (e) => errors.push(e),
      onChange: () => {
        changed += 1;
        controller.abort();
      },
    });
    await done;
    assert.equal(errors.length, 1);
    assert.ok(errors[0] instanceof ServiceError && errors[0].code === 'RATE_LIMITED');
    assert.equal(changed, 1);
    assert.ok(times[1]! - times[0]! >= 950, `waited ${times[1]! - times[0]!} ms`);
  });

  it('holds the next poll for the Retry-After of an error the listener rejects with (a read made for the list refused), and delivers the list again', async () => {
    answerOnePending();
    const controller = new AbortController();
    let calls = 0;
    const done = poll({
      signal: controller.signal,
      minDelayMs: 20,
      maxDelayMs: 40,
      onChange: async () => {
        if (++calls === 1) throw new ServiceError({ status: 429, code: 'RATE_LIMITED', message: 'Slow down.' }, { retryAfter: 1 });
      },
    });
    try {
      await until(() => calls === 2, 'the list delivered again', 5000);
    } finally {
      controller.abort();
      await done;
    }
    assert.ok(times[1]! - times[0]! >= 950, `waited ${times[1]! - times[0]!} ms`);
  });

  it('makes no poll before notBefore (a Retry-After an earlier poller was given), its first one included', async () => {
    answerOnePending();
    const controller = new AbortController();
    const start = performance.now();
    const done = poll({ signal: controller.signal, minDelayMs: 20, maxDelayMs: 40, notBefore: Date.now() + 1000, onChange: () => {} });
    try {
      await until(() => times.length >= 1, 'the first poll', 5000);
    } finally {
      controller.abort();
      await done;
    }
    assert.ok(times[0]! - start >= 950, `first poll after ${times[0]! - start} ms`);
  });

  it('keeps to a Retry-After beyond what one timer can wait (2^31-1 ms, 24.8 days), in seconds or as an HTTP-date: no poll follows at once', async () => {
    for (const retryAfter of ['3000000', new Date(Date.now() + 40 * 86_400_000).toUTCString()]) {
      server.requests.length = 0;
      server.setScript(() => ({ status: 429, headers: { 'retry-after': retryAfter }, body: { status: 429, code: 'RATE_LIMITED', message: 'Slow down.' } }));
      const controller = new AbortController();
      const errors: unknown[] = [];
      const watch = watchDelays();
      const done = poll({ signal: controller.signal, minDelayMs: 20, maxDelayMs: 40, onError: (e) => errors.push(e), onChange: () => {} });
      try {
        await until(() => errors.length >= 1, 'the 429', 5000);
        // A timer that overflowed fires at once (Node: after 1 ms); the backoff alone would poll again within 40 ms.
        await new Promise((r) => setTimeout(r, 500));
      } finally {
        controller.abort();
        await done;
        watch.restore();
      }
      assert.equal(server.requests.length, 1, `polls after Retry-After: ${retryAfter}`);
      // One timer for the wait, not one a millisecond: none set beyond what a timer can wait.
      assert.deepEqual(watch.delays.filter((ms) => ms > 2 ** 31 - 1), [], `timers after Retry-After: ${retryAfter}`);
      assert.ok(watch.delays.length <= 2, `${watch.delays.length} timers after Retry-After: ${retryAfter}`);
    }
  });

  it('delivers the list again after a failed poll, and when the listener answers false, though nothing changed', async () => {
    // The same pending list throughout; the second poll fails.
    let n = 0;
    const controller = new AbortController();
    server.setScript(() => {
      n += 1;
      // Two unchanged polls after the redelivery, then stop.
      if (n === 6) controller.abort();
      return n === 2
        ? { status: 503, body: { status: 503, code: 'UNAVAILABLE', message: 'Try later.' } }
        : { status: 200, body: { data: [action('PENDING_APPROVAL')], hasMore: false } };
    });
    const calls: number[] = [];
    const done = poll({
      signal: controller.signal,
      minDelayMs: 20,
      maxDelayMs: 40,
      onError: () => undefined,
      onChange: async () => {
        calls.push(n);
        // Poll 3 (after the failure) is delivered; the listener could not finish with it, so poll 4
        // is delivered too; after that the unchanged list is not.
        return n === 3 ? false : undefined;
      },
    });
    await done;
    assert.deepEqual(calls, [1, 3, 4]);
  });

  it('stops with the ServiceError on 401 (a bad agent token)', async () => {
    server.setScript(() => ({ status: 401, body: { status: 401, code: 'UNAUTHORIZED', message: 'Bad token.' } }));
    const controller = new AbortController();
    await assert.rejects(
      poll({ signal: controller.signal, onChange: () => {} }),
      (e: unknown) => e instanceof ServiceError && e.status === 401,
    );
    assert.equal(server.requests.length, 1);
  });
});
