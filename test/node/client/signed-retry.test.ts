/**
 * The signed retry (api.md "Signed-retry pattern (shared)", DESIGN.md wire format 7) against a real
 * HTTP server on loopback whose answers each test scripts, with real stamps checked by verifyStamp.
 */
import { describe, it, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createHttp } from '../../../src/core/client.ts';
import { sendSigned, parseChallenge } from '../../../src/core/signed-retry.ts';
import { generateSigningKey, type KeyPair } from '../../../src/core/p256.ts';
import { keyStamper, publicKeyHex, type Stamper } from '../../../src/core/stamp.ts';
import { verifyStamp } from '../../../src/sandbox/service-stamps.ts';
import { ServiceError, WalletError } from '../../../src/core/errors.ts';
import { startScriptedServer, type ScriptedServer, type SeenRequest } from './scripted-server.ts';

const inMinutes = (m: number) => new Date(Date.now() + m * 60_000).toISOString();
const ago = (s: number) => new Date(Date.now() - s * 1000).toISOString();
const rid = () => `Request:${randomUUID()}`;

function challenge(payloadToSign: string, requestId = rid(), expiresAt = inMinutes(5)) {
  return { status: 202, body: { payloadToSign, requestId, expiresAt, type: 'EMAIL_OTP' } };
}

/** Counts calls, to show what was (not) signed. */
function countingStamper(inner: Stamper): Stamper & { payloads: string[] } {
  const payloads: string[] = [];
  return {
    payloads,
    publicKey: inner.publicKey,
    stamp(p) {
      payloads.push(p);
      return inner.stamp(p);
    },
  };
}

async function expectWalletError(p: Promise<unknown>, code: string): Promise<WalletError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof WalletError, `expected WalletError(${code}), got ${String(e)}`);
    assert.equal(e.code, code);
    return e;
  }
  assert.fail(`expected WalletError(${code}), but it resolved`);
}

describe('signed retry against a scripted HTTP server', () => {
  let server: ScriptedServer;
  let key: KeyPair;
  let send: ReturnType<typeof createHttp>;

  before(async () => {
    server = await startScriptedServer();
    key = await generateSigningKey();
    send = createHttp({ baseUrl: server.url + '/v1' });
  });
  after(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
  });

  it('stamps payloadToSign exactly and resends the same body bytes with both headers', async () => {
    // A payload with characters a re-serialization would change (spaces, unicode, escapes).
    const payload = '{"b": 1,  "a":"\\u00e9 é ☃","n":[1.0, 2e3]}';
    const requestId = rid();
    server.setScript(async (req, i) => {
      if (i === 0) return challenge(payload, requestId);
      const stamp = req.headers['service-wallet-signature'];
      assert.equal(typeof stamp, 'string');
      const ok = await verifyStamp(stamp as string, payload);
      return ok && req.headers['request-id'] === requestId
        ? { status: 201, body: { id: 'AuthMethod:1', ok: true } }
        : { status: 401, body: { status: 401, code: 'WALLET_SIGNATURE_INVALID', message: 'bad' } };
    });
    const body = { type: 'PASSKEY', nickname: 'Ünïcode ✓', nested: { z: 1, a: [3, 2, 1] } };
    const res = await sendSigned({ send, method: 'POST', path: '/auth/credentials', body, stamper: keyStamper(key) });
    assert.equal(res.status, 201);
    assert.equal(server.requests.length, 2);
    const [first, second] = server.requests as [SeenRequest, SeenRequest];
    assert.equal(first.body, JSON.stringify(body));
    assert.equal(second.body, first.body, 'the retry sends the same bytes');
    assert.equal(first.headers['service-wallet-signature'], undefined);
    assert.equal(first.headers['request-id'], undefined);
    assert.equal(second.headers['request-id'], requestId);
    assert.equal(first.path, '/v1/auth/credentials');
  });

  it('serializes the body once even when the object changes during the exchange', async () => {
    const body: Record<string, unknown> = { clientPublicKey: '04ab' };
    server.setScript((_req, i) => (i === 0 ? challenge('p') : { status: 201, body: { ok: true } }));
    const stamper: Stamper = {
      async stamp(p) {
        body.clientPublicKey = 'changed';
        return keyStamper(key).stamp(p);
      },
    };
    await sendSigned({ send, method: 'POST', path: '/x', body, stamper });
    assert.equal(server.requests[1]!.body, server.requests[0]!.body);
  });

  it('loops on a second 202 (delegated-key creation) with a fresh signature each round', async () => {
    const ids = [rid(), rid()];
    server.setScript(async (req, i) => {
      if (i === 0) return challenge('round-1', ids[0]);
      if (i === 1) {
        assert.ok(await verifyStamp(req.headers['service-wallet-signature'] as string, 'round-1'));
        return challenge('round-2', ids[1]);
      }
      assert.ok(await verifyStamp(req.headers['service-wallet-signature'] as string, 'round-2'));
      assert.equal(req.headers['request-id'], ids[1]);
      return { status: 201, body: { id: 'DelegatedKey:1' } };
    });
    const stamper = countingStamper(keyStamper(key));
    const res = await sendSigned({ send, method: 'POST', path: '/auth/delegated-keys', body: { a: 1 }, stamper });
    assert.equal(res.status, 201);
    assert.deepEqual(stamper.payloads, ['round-1', 'round-2']);
    assert.equal(server.requests.length, 3);
    assert.equal(new Set(server.requests.map((r) => r.body)).size, 1);
  });

  it('stops after maxRounds signatures (bounded, retry_exhausted)', async () => {
    server.setScript(() => challenge('again'));
    const stamper = countingStamper(keyStamper(key));
    await expectWalletError(sendSigned({ send, method: 'POST', path: '/x', body: {}, stamper }), 'retry_exhausted');
    assert.equal(stamper.payloads.length, 3);
    assert.equal(server.requests.length, 4);
  });

  it('signs a challenge this clock already takes for expired: the service judges its window (a device clock minutes fast)', async () => {
    // The service's Date unreadable (a proxy on another origin that does not expose it) and the
    // device 6 minutes fast: the fresh challenge's expiresAt is a minute past by this clock.
    server.setScript((req, i) => {
      if (i === 0) return challenge('fresh', rid(), ago(60));
      assert.ok(req.headers['service-wallet-signature'], 'the retry is signed');
      return { status: 200, body: { ok: 1 } };
    });
    const stamper = countingStamper(keyStamper(key));
    const res = await sendSigned({ send, method: 'PATCH', path: '/x', body: { privateEnabled: true }, stamper });
    assert.equal(res.status, 200);
    assert.deepEqual(stamper.payloads, ['fresh']);
    assert.equal(server.requests.length, 2);
  });

  it('starts over with restartBody when given (a fresh OIDC token), sending its bytes on both legs of the new exchange', async () => {
    server.setScript((_req, i) =>
      i === 0 ? challenge('one') : i === 1 ? { status: 401, body: { status: 401, code: 'REQUEST_EXPIRED', message: 'expired' } } : i === 2 ? challenge('two') : { status: 201, body: { ok: 1 } },
    );
    const stamper = countingStamper(keyStamper(key));
    const res = await sendSigned({ send, method: 'POST', path: '/x', body: { oidcToken: 'old' }, restartBody: async () => ({ oidcToken: 'new' }), stamper });
    assert.equal(res.status, 201);
    assert.deepEqual(
      server.requests.map((r) => r.body),
      ['{"oidcToken":"old"}', '{"oidcToken":"old"}', '{"oidcToken":"new"}', '{"oidcToken":"new"}'],
    );
    assert.deepEqual(stamper.payloads, ['one', 'two']);
  });

  it('starts over once when the retry is refused with 401 because the request expired', async () => {
    const first = rid();
    server.setScript((req, i) => {
      if (i === 0) return challenge('one', first);
      if (i === 1) return { status: 401, body: { status: 401, code: 'REQUEST_EXPIRED', message: 'expired' } };
      if (i === 2) {
        assert.equal(req.headers['request-id'], undefined);
        return challenge('two');
      }
      assert.notEqual(req.headers['request-id'], first, 'a consumed requestId is never sent again');
      return { status: 204 };
    });
    const stamper = countingStamper(keyStamper(key));
    const res = await sendSigned({ send, method: 'DELETE', path: '/auth/sessions/Session:1', stamper });
    assert.equal(res.status, 204);
    assert.deepEqual(stamper.payloads, ['one', 'two']);
    assert.equal(server.requests[0]!.body, '', 'a DELETE has no body on either leg');
    assert.equal(server.requests[3]!.body, '');
  });

  it('starts over on a plain 401 when the challenge lapsed by a clock that took it for live as it came', async () => {
    // Signing waited (the stamper below moves this clock on 6 minutes) past the 5-minute window.
    let waited = 0;
    const slow: Stamper = {
      publicKey: keyStamper(key).publicKey,
      stamp(payload) {
        waited = 6 * 60_000;
        return keyStamper(key).stamp(payload);
      },
    };
    server.setScript((_req, i) => (i % 2 === 0 ? challenge('p' + i) : i === 1 ? { status: 401, body: { status: 401, code: 'UNAUTHORIZED', message: 'no' } } : { status: 204 }));
    const res = await sendSigned({ send, method: 'DELETE', path: '/x', stamper: slow, now: () => Date.now() + waited });
    assert.equal(res.status, 204);
    assert.equal(server.requests.length, 4);
  });

  it('does not take a plain 401 for an expiry when this clock took the challenge for expired as it came (it cannot tell)', async () => {
    server.setScript((_req, i) => (i === 0 ? challenge('p', rid(), ago(60)) : { status: 401, body: { status: 401, code: 'UNAUTHORIZED', message: 'no' } }));
    await assert.rejects(
      sendSigned({ send, method: 'POST', path: '/x', body: {}, stamper: keyStamper(key) }),
      (e: unknown) => e instanceof ServiceError && e.code === 'UNAUTHORIZED',
    );
    assert.equal(server.requests.length, 2);
  });

  it('gives up (retry_exhausted, the refusal its cause) when the restarted retry is refused as expired again', async () => {
    server.setScript((_req, i) =>
      i % 2 === 0 ? challenge('p' + i) : { status: 401, body: { status: 401, code: 'UNAUTHORIZED', message: 'expired', details: { reason: 'REQUEST_ID_EXPIRED' } } },
    );
    const e = await expectWalletError(sendSigned({ send, method: 'POST', path: '/x', body: {}, stamper: keyStamper(key) }), 'retry_exhausted');
    assert.ok(e.cause instanceof ServiceError && e.cause.status === 401);
    assert.equal(server.requests.length, 4);
  });

  it('does not start over on a 401 that is not an expiry', async () => {
    server.setScript((_req, i) =>
      i === 0 ? challenge('p') : { status: 401, body: { status: 401, code: 'WALLET_SIGNATURE_INVALID', message: 'no' } },
    );
    await assert.rejects(
      sendSigned({ send, method: 'POST', path: '/x', body: {}, stamper: keyStamper(key) }),
      (e: unknown) => e instanceof ServiceError && e.code === 'WALLET_SIGNATURE_INVALID',
    );
    assert.equal(server.requests.length, 2);
  });

  it('refuses a 202 that re-issues a consumed requestId, without resending it', async () => {
    const same = rid();
    server.setScript(() => challenge('p', same));
    await expectWalletError(sendSigned({ send, method: 'POST', path: '/x', body: {}, stamper: keyStamper(key) }), 'unexpected_response');
    assert.equal(server.requests.filter((r) => r.headers['request-id'] === same).length, 1);
  });

  it('says session_expired (asking for a login) when a 202 comes and there is no stamper', async () => {
    server.setScript(() => challenge('p'));
    const e = await expectWalletError(sendSigned({ send, method: 'POST', path: '/x', body: {} }), 'session_expired');
    assert.match(e.message, /log in/i);
  });

  it('returns a 2xx other than 202 at once, signing nothing', async () => {
    server.setScript(() => ({ status: 201, body: { id: 'AuthMethod:1' } }));
    const stamper = countingStamper(keyStamper(key));
    const res = await sendSigned({ send, method: 'POST', path: '/x', body: {}, stamper });
    assert.equal(res.status, 201);
    assert.equal(stamper.payloads.length, 0);
  });

  for (const [name, body] of [
    ['no payloadToSign', { requestId: rid(), expiresAt: inMinutes(5) }],
    ['an empty payloadToSign', { payloadToSign: '', requestId: rid(), expiresAt: inMinutes(5) }],
    ['a requestId without the Request: prefix', { payloadToSign: 'p', requestId: randomUUID(), expiresAt: inMinutes(5) }],
    ['an unparsable expiresAt', { payloadToSign: 'p', requestId: rid(), expiresAt: 'soon' }],
    ['a JSON array', [1, 2]],
  ] as const) {
    it(`treats a 202 with ${name} as unexpected_response`, async () => {
      server.setScript(() => ({ status: 202, body }));
      await expectWalletError(sendSigned({ send, method: 'POST', path: '/x', body: {}, stamper: keyStamper(key) }), 'unexpected_response');
    });
  }

  it('keeps payloads and stamps out of errors', async () => {
    const payload = 'SECRET-PAYLOAD-' + randomUUID();
    let stampValue = '';
    server.setScript((req, i) => {
      if (i === 0) return challenge(payload);
      stampValue = req.headers['service-wallet-signature'] as string;
      return { status: 401, body: { status: 401, code: 'WALLET_SIGNATURE_INVALID', message: 'Signature invalid.' } };
    });
    const err = await sendSigned({ send, method: 'POST', path: '/x', body: {}, stamper: keyStamper(key) }).catch((e: unknown) => e);
    const text = JSON.stringify(err) + String(err) + (err as Error).stack;
    assert.ok(stampValue.length > 20);
    assert.ok(!text.includes(payload));
    assert.ok(!text.includes(stampValue));
  });

  it("tells the stamper of a signed leg refused with 401, and what the stamper throws is the call's failure; an expired challenge or another status is not told", async () => {
    const told: unknown[] = [];
    const stamper = (throws?: Error): Stamper => ({
      ...keyStamper(key),
      async refused(e) {
        told.push(e);
        if (throws) throw throws;
      },
    });
    const refusedOnce = (status: number, code: string) => (_req: unknown, i: number) => (i === 0 ? challenge('p') : { status, body: { status, code, message: 'no' } });
    /** A new script, its requests counted from 0. */
    const script = (fn: Parameters<ScriptedServer['setScript']>[0]) => {
      server.requests.length = 0;
      server.setScript(fn);
    };
    script(refusedOnce(401, 'WALLET_SIGNATURE_INVALID'));
    const ended = new WalletError('session_expired', 'ended there');
    assert.equal(await sendSigned({ send, method: 'POST', path: '/x', body: {}, stamper: stamper(ended) }).catch((e: unknown) => e), ended);
    assert.ok(told[0] instanceof ServiceError && told[0].code === 'WALLET_SIGNATURE_INVALID');
    // Returning lets the refusal stand.
    script(refusedOnce(401, 'WALLET_SIGNATURE_INVALID'));
    const stood = await sendSigned({ send, method: 'POST', path: '/x', body: {}, stamper: stamper() }).catch((e: unknown) => e);
    assert.ok(stood instanceof ServiceError && stood.status === 401);
    assert.equal(told.length, 2);
    // A 403 (another rule), and a retry refused as expired (started over, then done), are not told.
    script(refusedOnce(403, 'FORBIDDEN'));
    await sendSigned({ send, method: 'POST', path: '/x', body: {}, stamper: stamper(ended) }).catch(() => undefined);
    script((_req, i) => (i % 2 === 0 ? challenge('p' + i) : i === 1 ? { status: 401, body: { status: 401, code: 'REQUEST_EXPIRED', message: 'expired' } } : { status: 204 }));
    await sendSigned({ send, method: 'POST', path: '/x', body: {}, stamper: stamper(ended) });
    assert.equal(told.length, 2);
  });

  it('a stamper whose `refused` answers another stamper: the exchange starts over from its first leg, signed by that one, once', async () => {
    const other = await generateSigningKey();
    const renewed = keyStamper(other);
    let told = 0;
    const stamper: Stamper = {
      ...keyStamper(key),
      async refused() {
        told++;
        return renewed;
      },
    };
    const refused = { status: 401, body: { status: 401, code: 'WALLET_SIGNATURE_INVALID', message: 'no' } };
    // Challenge, refused; first leg again, challenge, accepted.
    server.setScript((_req, i) => (i === 0 ? challenge('p0') : i === 1 ? refused : i === 2 ? challenge('p2') : { status: 204 }));
    const res = await sendSigned({ send, method: 'POST', path: '/x', body: { a: 1 }, stamper });
    assert.equal(res.status, 204);
    assert.equal(told, 1);
    const [first, signed, again, resigned] = server.requests;
    assert.equal(again!.headers['request-id'], undefined);
    assert.equal(again!.body, first!.body);
    assert.equal((await verifyStamp(String(signed!.headers['service-wallet-signature']), 'p0'))?.publicKey, publicKeyHex(key));
    assert.equal((await verifyStamp(String(resigned!.headers['service-wallet-signature']), 'p2'))?.publicKey, publicKeyHex(other));
    // Refused again: no third signature, the refusal stands.
    server.requests.length = 0;
    server.setScript((_req, i) => (i % 2 === 0 ? challenge('q' + i) : refused));
    const e = await sendSigned({ send, method: 'POST', path: '/x', body: {}, stamper }).catch((x: unknown) => x);
    assert.ok(e instanceof ServiceError && e.status === 401);
    assert.equal(server.requests.length, 4);
  });

  it('honours the abort signal between the legs', async () => {
    const controller = new AbortController();
    server.setScript((_req, i) => (i === 0 ? challenge('p') : { status: 201, body: {} }));
    const stamper: Stamper = {
      async stamp(p) {
        controller.abort();
        return keyStamper(key).stamp(p);
      },
    };
    await expectWalletError(sendSigned({ send, method: 'POST', path: '/x', body: {}, stamper, signal: controller.signal }), 'aborted');
    assert.equal(server.requests.length, 1, 'the signed leg is not sent after an abort');
  });

  it('parseChallenge keeps the documented fields only', () => {
    const c = parseChallenge({ payloadToSign: 'p', requestId: 'Request:abc', expiresAt: inMinutes(1), type: 'OAUTH', extra: 'x' });
    assert.deepEqual(Object.keys(c).sort(), ['expiresAt', 'payloadToSign', 'requestId', 'type']);
  });
});
