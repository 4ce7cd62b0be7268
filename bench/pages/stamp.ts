/**
 * Stamp throughput page (runs in Chromium). Four contenders sign the same payload, one at a time,
 * in a sequential loop for a fixed slice of time; bench/stamp.ts interleaves the slices:
 *
 * - `floor`: a bare WebCrypto ECDSA P-256/SHA-256 sign of the payload's UTF-8 bytes, nothing else;
 * - `ours`: our stamper over the key read once from our IndexedDB key store (header value built:
 *   DER, hex, JSON, base64url), as a session does after the page loads;
 * - `ours-reload`: the same, reading the key from IndexedDB before every stamp (worst case);
 * - `turnkey`: @turnkey/indexed-db-stamper after `init()` (key read once from its IndexedDB).
 *
 * Before timing, each stamp is checked with our verifier so a contender cannot be fast by being wrong.
 */
import { IndexedDbStamper } from '@turnkey/indexed-db-stamper';
import { indexedDbKeyStore } from '../../src/core/keystore.ts';
import { generateSigningKey } from '../../src/core/p256.ts';
import { keyStamper, publicKeyHex, type Stamper } from '../../src/core/stamp.ts';
import { verifyStamp } from '../../src/sandbox/service-stamps.ts';

// A payload the size of a signed-retry payloadToSign (a verification token, ~450 bytes).
const PAYLOAD = JSON.stringify({
  type: 'ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2',
  timestampMs: '1760000000000',
  organizationId: '5f1c0e7e-9d3b-4a8e-8f5e-2a6b9c1d0e4f',
  parameters: {
    userId: 'InternalAccount:8a1f8c52-5c1b-4a0e-9f3e-7d2b6c4a1e90',
    authenticators: [{ authenticatorName: 'Laptop passkey', challenge: 'c2FtcGxlLWNoYWxsZW5nZS1mb3ItYmVuY2htYXJr', attestation: { credentialId: 'AbCdEfGhIjKlMnOp' } }],
  },
  requestId: 'Request:0b6f6f1e-3c8e-4f7a-9e2d-1a5b7c9d3e21',
});

type Contender = () => Promise<unknown>;
const contenders = new Map<string, Contender>();

async function setup(): Promise<{ checks: Record<string, string>; payloadBytes: number }> {
  const encoder = new TextEncoder();
  const floorKey = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
  contenders.set('floor', () => crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, floorKey.privateKey, encoder.encode(PAYLOAD)));

  const store = indexedDbKeyStore({ dbName: 'bench-stamp' });
  await store.clear();
  const key = await generateSigningKey();
  const accountId = 'InternalAccount:8a1f8c52-5c1b-4a0e-9f3e-7d2b6c4a1e90';
  const now = new Date();
  await store.put(
    {
      accountId,
      credentialId: 'AuthMethod:2b3c4d5e-6f70-4182-9394-a5b6c7d8e9f0',
      credentialType: 'EMAIL_OTP',
      sessionId: 'Session:3c4d5e6f-7081-4293-a4b5-c6d7e8f90a1b',
      expiresAt: new Date(now.getTime() + 15 * 60_000).toISOString(),
      publicKey: publicKeyHex(key),
      createdAt: now.toISOString(),
    },
    key,
  );
  const loaded = await store.get(accountId);
  if (!loaded?.key) throw new Error('key store lost the key');
  const ours: Stamper = keyStamper(loaded.key);
  contenders.set('ours', () => ours.stamp(PAYLOAD));
  contenders.set('ours-reload', async () => {
    const again = await store.get(accountId);
    return keyStamper(again!.key!).stamp(PAYLOAD);
  });

  const turnkey = new IndexedDbStamper();
  await turnkey.init();
  contenders.set('turnkey', () => turnkey.stamp(PAYLOAD));

  // Correctness before speed: both stamp formats are the same wire format 1 (DESIGN.md).
  const mine = await ours.stamp(PAYLOAD);
  const theirs = await turnkey.stamp(PAYLOAD);
  const checks: Record<string, string> = {};
  checks.ours = (await verifyStamp(mine.headerValue, PAYLOAD)) ? 'valid' : 'INVALID';
  checks.turnkey = (await verifyStamp(theirs.stampHeaderValue, PAYLOAD)) ? 'valid' : 'INVALID';
  return { checks, payloadBytes: encoder.encode(PAYLOAD).length };
}

/** Runs one contender back to back for `ms` milliseconds; returns stamps per second. */
async function run(name: string, ms: number): Promise<number> {
  const fn = contenders.get(name);
  if (!fn) throw new Error(`unknown contender ${name}`);
  let n = 0;
  const t0 = performance.now();
  let t = t0;
  while (t - t0 < ms) {
    await fn();
    n++;
    t = performance.now();
  }
  return (n * 1000) / (t - t0);
}

Object.assign(globalThis, { bench: { setup, run } });
