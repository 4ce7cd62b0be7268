/**
 * Shared pieces of the sandbox's node tests: a plain-fetch caller with the sandbox's credentials,
 * the signed retry and the OTP, OAUTH and passkey logins written out with the core crypto (stamps,
 * HPKE bundles), and shape checks of the resources of spec/reference.md. Deliberately independent of
 * src/core/client.ts: these tests pin the wire, not the client.
 */
import assert from 'node:assert/strict';
import { bytesToHex, hexToBytes, sha256Hex, utf8Encode } from '../../../src/core/encoding.ts';
import { compressPublicKey, generateEncryptionKey, generateSigningKey, type KeyPair } from '../../../src/core/p256.ts';
import { createStamp, WALLET_SIGNATURE_HEADER } from '../../../src/core/stamp.ts';
import { REQUEST_ID_HEADER } from '../../../src/core/signed-retry.ts';
import { encryptOtpBundle, importSessionKeyBundle, verifyTargetBundle } from '../../../src/core/bundles.ts';
import { mintIdToken, startSandbox, type Sandbox, type SandboxOptions } from '../../../src/sandbox/index.ts';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const idOf = (type: string) => new RegExp(`^${type}:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`);
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

export interface Res {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

export type Auth = 'basic' | 'impersonation' | 'none' | { bearer: string } | { raw: string };

export interface CallOptions {
  body?: unknown;
  headers?: Record<string, string>;
  auth?: Auth;
  /** Path relative to the server origin instead of the service base. */
  outside?: boolean;
}

export class Api {
  constructor(readonly sandbox: Sandbox) {}

  get fx() {
    return this.sandbox.fixtures;
  }

  authHeader(auth: Auth): string | undefined {
    if (auth === 'none') return undefined;
    if (auth === 'basic') return 'Basic ' + Buffer.from(`${this.fx.tokenId}:${this.fx.clientSecret}`).toString('base64');
    if (auth === 'impersonation') return 'Basic ' + Buffer.from(`${this.fx.impersonation.tokenId}:${this.fx.impersonation.clientSecret}`).toString('base64');
    if ('bearer' in auth) return `Bearer ${auth.bearer}`;
    return auth.raw;
  }

  async call(method: string, path: string, o: CallOptions = {}): Promise<Res> {
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    const a = this.authHeader(o.auth ?? 'basic');
    if (a) headers.authorization = a;
    let body: string | undefined;
    if (o.body !== undefined) {
      body = typeof o.body === 'string' ? o.body : JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    }
    const url = (o.outside ? this.sandbox.url : this.fx.baseUrl) + path;
    const r = await fetch(url, { method, headers, body, redirect: 'manual' });
    const text = await r.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: r.status, headers: r.headers, text, body: parsed };
  }

  /** First leg: expects a 202 SignedRequestChallenge and returns it. */
  async challenge(method: string, path: string, body?: unknown, o: CallOptions = {}): Promise<{ payloadToSign: string; requestId: string; expiresAt: string; type?: string }> {
    const r = await this.call(method, path, { ...o, body });
    assert.equal(r.status, 202, `expected 202 from ${method} ${path}, got ${r.status} ${r.text}`);
    assertSignedRequestChallenge(r.body);
    return r.body;
  }

  /** A whole signed retry with `key`, looping on further 202s (at most `maxLegs`). */
  async signed(method: string, path: string, body: unknown, key: KeyPair, maxLegs = 3): Promise<Res> {
    let r = await this.call(method, path, { body });
    for (let i = 0; i < maxLegs && r.status === 202; i++) {
      assertSignedRequestChallenge(r.body);
      r = await this.retry(method, path, body, r.body, key);
    }
    return r;
  }

  async retry(method: string, path: string, body: unknown, ch: { payloadToSign: string; requestId: string }, key: KeyPair, extra: Record<string, string> = {}): Promise<Res> {
    return this.call(method, path, {
      body,
      headers: { [WALLET_SIGNATURE_HEADER]: await createStamp(ch.payloadToSign, key), [REQUEST_ID_HEADER]: ch.requestId, ...extra },
    });
  }

  /** A fresh customer set (customer, wallet, card, funding source, agent). */
  async newAccount(body: Record<string, unknown> = {}): Promise<{ customerId: string; accountId: string; emailCredentialId: string; cardId: string; fundingSourceId: string; agentId: string; agentToken: string }> {
    const r = await this.call('POST', '/sandbox/accounts', { body, outside: true });
    assert.equal(r.status, 201, r.text);
    return r.body;
  }

  /** The full EMAIL_OTP / SMS_OTP login (api.md verify 1) returning the session and its key (a fresh one unless `key`). */
  async otpLogin(credentialId: string, opts: { type?: 'EMAIL_OTP' | 'SMS_OTP'; bundle?: string; key?: KeyPair } = {}): Promise<{ session: any; key: KeyPair }> {
    let bundle = opts.bundle;
    if (!bundle) {
      const ch = await this.call('POST', `/auth/credentials/${credentialId}/challenge`, { body: {} });
      assert.equal(ch.status, 200, ch.text);
      bundle = ch.body.otpEncryptionTargetBundle as string;
    }
    const targetPublic = await verifyTargetBundle(bundle, this.fx.signerPublicKey);
    const key = opts.key ?? (await generateSigningKey());
    const encryptedOtpBundle = await encryptOtpBundle({ otpCode: '000000', targetPublic, clientPublicKey: key.publicKey });
    const body = { type: opts.type ?? 'EMAIL_OTP', encryptedOtpBundle };
    const first = await this.challenge('POST', `/auth/credentials/${credentialId}/verify`, body);
    const r = await this.retry('POST', `/auth/credentials/${credentialId}/verify`, body, first, key);
    assert.equal(r.status, 200, r.text);
    assertAuthSession(r.body);
    return { session: r.body, key };
  }

  /** OAUTH verify with a token (Google issuer unless `claims.iss`) bound to a fresh client key; returns the session and the imported key. */
  async oauthLogin(credentialId: string, claims: Record<string, unknown>): Promise<{ session: any; key: KeyPair; res: Res }> {
    const receiver = await generateEncryptionKey();
    const clientPublicKey = bytesToHex(receiver.publicKey);
    const oidcToken = await mintIdToken({ ...claims, nonce: await sha256Hex(clientPublicKey) }, { now: this.sandbox.clock.now() });
    const res = await this.call('POST', `/auth/credentials/${credentialId}/verify`, { body: { type: 'OAUTH', oidcToken, clientPublicKey } });
    if (res.status !== 200) return { session: undefined, key: receiver, res };
    assertAuthSession(res.body, { withKey: true });
    const key = await importSessionKeyBundle(res.body.encryptedSessionSigningKey, receiver);
    return { session: res.body, key, res };
  }
}

export async function withSandbox(options: SandboxOptions = {}): Promise<Api> {
  return new Api(await startSandbox(options));
}

export function compressedHex(key: KeyPair): string {
  return bytesToHex(compressPublicKey(key.publicKey));
}

export { bytesToHex, hexToBytes, utf8Encode };

// ---- shape checks (reference.md) ---------------------------------------------------------------

export function assertError(r: Res, status: number, code?: string): void {
  assert.equal(r.status, status, `expected ${status}${code ? ' ' + code : ''}, got ${r.status} ${r.text}`);
  assert.equal(typeof r.body, 'object', `error body is JSON: ${r.text}`);
  assert.equal(r.body.status, status);
  assert.equal(typeof r.body.code, 'string');
  assert.equal(typeof r.body.message, 'string');
  assert.ok(r.body.message.length > 0);
  if (r.body.details !== undefined) assert.equal(typeof r.body.details, 'object');
  if (code) assert.equal(r.body.code, code, `code: ${r.text}`);
  for (const k of Object.keys(r.body)) assert.ok(['status', 'code', 'message', 'details'].includes(k), `unexpected error field ${k}`);
}

export function assertFieldError(r: Res, field: string): void {
  assertError(r, 400, 'INVALID_INPUT');
  const errors = r.body.details?.errors;
  assert.ok(Array.isArray(errors) && errors.length > 0, `details.errors: ${r.text}`);
  for (const e of errors) {
    assert.equal(typeof e.field, 'string');
    assert.equal(typeof e.message, 'string');
  }
  assert.ok(errors.some((e: { field: string }) => e.field === field), `a field error on ${field}: ${r.text}`);
}

export function assertSignedRequestChallenge(b: any): void {
  assert.equal(typeof b.payloadToSign, 'string');
  assert.ok(b.payloadToSign.length > 0);
  assert.match(b.requestId, idOf('Request'));
  assert.match(b.expiresAt, ISO);
}

export function assertAuthMethod(m: any): void {
  assert.match(m.id, idOf('AuthMethod'));
  assert.match(m.accountId, idOf('InternalAccount'));
  assert.ok(['EMAIL_OTP', 'SMS_OTP', 'OAUTH', 'PASSKEY'].includes(m.type));
  assert.equal(typeof m.nickname, 'string');
  assert.match(m.createdAt, ISO);
  assert.match(m.updatedAt, ISO);
  if (m.type === 'PASSKEY') assert.match(m.credentialId, /^[A-Za-z0-9_-]+$/);
  else assert.equal(m.credentialId, undefined);
}

export function assertAuthSession(s: any, o: { withKey?: boolean } = {}): void {
  assert.match(s.id, idOf('Session'));
  assert.match(s.accountId, idOf('InternalAccount'));
  assert.ok(['EMAIL_OTP', 'SMS_OTP', 'OAUTH', 'PASSKEY'].includes(s.type));
  assert.equal(typeof s.nickname, 'string');
  assert.match(s.createdAt, ISO);
  assert.match(s.updatedAt, ISO);
  assert.match(s.expiresAt, ISO);
  if (o.withKey) assert.match(s.encryptedSessionSigningKey, /^[1-9A-HJ-NP-Za-km-z]+$/);
  else assert.equal(s.encryptedSessionSigningKey, undefined);
}

export function assertDelegatedKey(k: any): void {
  assert.match(k.id, idOf('DelegatedKey'));
  assert.match(k.cardId, idOf('Card'));
  assert.match(k.fundingSourceId, idOf('CardFundingSource'));
  assert.match(k.accountId, idOf('InternalAccount'));
  assert.match(k.publicKey, /^0[23][0-9a-f]{64}$/);
  assert.equal(typeof k.nickname, 'string');
  assert.ok(['PENDING', 'ACTIVE', 'REVOKED'].includes(k.status));
  assert.match(k.createdAt, ISO);
  assert.match(k.updatedAt, ISO);
  if (k.spendingLimits !== undefined) {
    assert.ok(Array.isArray(k.spendingLimits) && k.spendingLimits.length > 0);
    for (const l of k.spendingLimits) {
      assert.match(l.currencyCode, /^[A-Z0-9]{3,16}$/);
      assert.ok(Number.isInteger(l.maxPerTransaction) && l.maxPerTransaction >= 1);
    }
  }
  for (const f of Object.keys(k)) assert.ok(!/private|secret|scalar/i.test(f), `no private material: ${f}`);
}

function assertCurrency(c: any): void {
  assert.equal(typeof c.code, 'string');
  assert.equal(typeof c.name, 'string');
  assert.equal(typeof c.symbol, 'string');
  assert.ok(Number.isInteger(c.decimals));
}

export function assertAgentAction(a: any): void {
  assert.match(a.id, idOf('AgentAction'));
  assert.match(a.agentId, idOf('Agent'));
  assert.match(a.customerId, idOf('Customer'));
  assert.equal(typeof a.platformCustomerId, 'string');
  assert.ok(['PENDING_APPROVAL', 'APPROVED', 'REJECTED', 'FAILED'].includes(a.status));
  assert.ok(['EXECUTE_QUOTE', 'TRANSFER_OUT', 'TRANSFER_IN'].includes(a.type));
  assert.match(a.createdAt, ISO);
  assert.match(a.updatedAt, ISO);
  if (a.type === 'EXECUTE_QUOTE') {
    const q = a.quote;
    assert.ok(q, 'EXECUTE_QUOTE carries a quote');
    assert.match(q.id, idOf('Quote'));
    for (const f of ['status', 'createdAt', 'expiresAt', 'transactionId', 'remittanceInformation']) assert.equal(typeof q[f], 'string', f);
    for (const f of ['totalSendingAmount', 'totalReceivingAmount', 'exchangeRate', 'feesIncluded']) assert.equal(typeof q[f], 'number', f);
    assertCurrency(q.sendingCurrency);
    assertCurrency(q.receivingCurrency);
    assert.equal(typeof q.source.sourceType, 'string');
    assert.equal(typeof q.destination.destinationType, 'string');
    assert.ok(Array.isArray(q.paymentInstructions) && q.paymentInstructions.length > 0);
    for (const p of q.paymentInstructions) {
      assert.equal(typeof p.accountOrWalletInfo.accountType, 'string');
      assert.equal(typeof p.instructionsNotes, 'string');
    }
    for (const f of ['counterpartyMultiplier', 'counterpartyFixedFee', 'gridApiMultiplier', 'gridApiFixedFee', 'gridApiVariableFeeRate', 'gridApiVariableFeeAmount']) {
      assert.equal(typeof q.rateDetails[f], 'number', f);
    }
    assert.equal(a.transferDetails, undefined);
  } else {
    const t = a.transferDetails;
    assert.ok(t, 'transfers carry transferDetails');
    assert.ok(Number.isInteger(t.amount));
    assert.equal(typeof t.currency, 'string');
    assert.equal(typeof t.sourceAccountId, 'string');
    assert.equal(typeof t.destinationAccountId, 'string');
    assert.equal(a.quote, undefined);
  }
  if (a.status === 'APPROVED' || a.status === 'FAILED') {
    const tx = a.transaction;
    assert.ok(tx, `${a.status} carries a transaction`);
    assert.match(tx.id, idOf('Transaction'));
    assert.equal(typeof tx.status, 'string');
    assert.ok(Number.isInteger(tx.receivedAmount.amount));
    assertCurrency(tx.receivedAmount.currency);
    assert.equal(typeof tx.source.sourceType, 'string');
    assert.equal(typeof tx.destination.destinationType, 'string');
    if (a.status === 'FAILED') assert.equal(typeof tx.failureReason, 'string');
  } else {
    assert.equal(a.transaction, undefined);
  }
  if (a.status === 'REJECTED') assert.equal(typeof a.rejectionReason, 'string');
  else assert.equal(a.rejectionReason, undefined);
}
