/**
 * Everything one running sandbox holds: resolved options, the clock, the store, the signer and
 * OIDC keys, the per-start reveal secret and API credentials, and the signed-retry engine; plus
 * the seeding of a "customer set" (customer with email and phone, Embedded Wallet account with its
 * EMAIL_OTP credential, card bound through a CardFundingSource, agent with token and actions), used
 * at start (the fixtures) and by `POST /sandbox/accounts` (fresh sets so tests do not interfere).
 *
 * Deliberately not here: HTTP. Routes read and change this through plain functions.
 */
import { randomBytes as nodeRandomBytes, randomUUID } from 'node:crypto';
import { bytesToHex } from '../core/encoding.ts';
import { generateSigningKey, type KeyPair } from '../core/p256.ts';
import type { AuthMethod } from '../core/types.ts';
import { seedActions } from './agent-actions.ts';
import { SignedRetryEngine } from './signed-retry.ts';
import { sandboxSignerKey } from './signer.ts';
import { Prng, Store, type ActionRecord } from './state.ts';

export interface ResolvedOptions {
  sessionLifetimeMs: number;
  signedRetryWindowMs: number;
  revealLifetimeMs: number;
  otpResendIntervalMs: number;
  /** How long the code of one OTP challenge stays usable. */
  otpLifetimeMs: number;
  cardIssuer: boolean;
  /** Whether a session refresh seals a fresh service-chosen key to the client (encryptedSessionSigningKey). */
  refreshSealsKey: boolean;
  /** Whether `POST /sandbox/clock` may move the clock. */
  testClock: boolean;
  rpId: string;
  originAllowed: (origin: string) => boolean;
  /** CSP `frame-ancestors` sources of the processor page (from the allowed origins). */
  frameAncestors: string;
}

export interface Clock {
  now(): number;
  advance(ms: number): void;
}

export interface ApiCredentials {
  tokenId: string;
  clientSecret: string;
}

export interface World {
  options: ResolvedOptions;
  clock: Clock;
  store: Store;
  prng: Prng;
  signer: KeyPair;
  oidcKey: KeyPair;
  oidcKid: string;
  /** HMAC key of reveal tokens, fresh per start. */
  revealSecret: Uint8Array;
  platform: ApiCredentials;
  impersonation: ApiCredentials;
  retry: SignedRetryEngine;
  /** `http://host:port`, known once the server listens. */
  origin: string;
}

/** Any `http://localhost:*` or `http://127.0.0.1:*` origin (the demo and test pages). */
export function defaultOriginAllowed(origin: string): boolean {
  return /^http:\/\/(localhost|127\.0\.0\.1)(:\d{1,5})?$/.test(origin);
}

export function makeClock(base: () => number): Clock {
  let offset = 0;
  return {
    now: () => base() + offset,
    advance(ms: number) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError('advance(ms) needs a finite, non-negative number');
      offset += ms;
    },
  };
}

export async function createWorld(options: ResolvedOptions, clock: Clock, seed: number): Promise<World> {
  const store = new Store();
  const oidcKey = await generateSigningKey();
  return {
    options,
    clock,
    store,
    prng: new Prng(seed),
    signer: await sandboxSignerKey(),
    oidcKey,
    oidcKid: bytesToHex(oidcKey.publicKey.subarray(1, 9)),
    revealSecret: new Uint8Array(nodeRandomBytes(32)),
    platform: { tokenId: randomUUID(), clientSecret: nodeRandomBytes(24).toString('base64url') },
    impersonation: { tokenId: randomUUID(), clientSecret: nodeRandomBytes(24).toString('base64url') },
    retry: new SignedRetryEngine(store, clock.now, options.signedRetryWindowMs),
    origin: '',
  };
}

export interface CustomerSet {
  customerId: string;
  platformCustomerId: string;
  accountId: string;
  /** Absent when the set was made without a credential (to exercise the first-credential path). */
  emailCredentialId?: string;
  cardId: string;
  fundingSourceId: string;
  agentId: string;
  agentToken: string;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** A Luhn-valid test PAN on the 4000 00 test range. */
function testPan(prng: Prng): string {
  const body = '400000' + Array.from({ length: 9 }, () => prng.int(0, 9)).join('');
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return body + String((10 - (sum % 10)) % 10);
}

export function createCustomerSet(
  world: World,
  input: { email?: string; phone?: string; name?: string; actions?: number; emailCredential?: boolean } = {},
): CustomerSet {
  const { store, prng } = world;
  const now = world.clock.now();
  const at = iso(now);
  const n = store.customers.size + 1;
  const customerId = `Customer:${prng.uuid()}`;
  const platformCustomerId = `platform-customer-${n}`;
  const email = input.email ?? (n === 1 ? 'demo@sandbox.test' : `user${n}@sandbox.test`);
  store.customers.set(customerId, {
    id: customerId as `Customer:${string}`,
    platformCustomerId,
    email,
    phone: input.phone ?? `+1555010${String(n).padStart(4, '0')}`,
    fullName: input.name ?? (n === 1 ? 'Demo User' : `Sandbox User ${n}`),
    createdAt: at,
    updatedAt: at,
  });
  const accountId = `InternalAccount:${prng.uuid()}`;
  store.accounts.set(accountId, {
    id: accountId as `InternalAccount:${string}`,
    customerId,
    type: 'EMBEDDED_WALLET',
    status: 'ACTIVE',
    privateEnabled: false,
    balance: { amount: 125_000, currency: { code: 'USDB', name: 'USD Stablecoin', symbol: '$', decimals: 2 } },
    createdAt: at,
    updatedAt: at,
  });
  // reference.md "Sandbox behaviour": every wallet starts with one EMAIL_OTP credential.
  let emailCredentialId: string | undefined;
  if (input.emailCredential !== false) {
    emailCredentialId = `AuthMethod:${prng.uuid()}`;
    const method: AuthMethod = {
      id: emailCredentialId as AuthMethod['id'],
      accountId: accountId as AuthMethod['accountId'],
      type: 'EMAIL_OTP',
      nickname: email,
      createdAt: at,
      updatedAt: at,
    };
    store.credentials.set(emailCredentialId, { method, revoked: false });
  }

  const cardId = `Card:${prng.uuid()}`;
  const expiry = new Date(now);
  store.cards.set(cardId, {
    id: cardId,
    customerId,
    status: 'ACTIVE',
    pan: testPan(prng),
    cvv: String(prng.int(100, 999)),
    expMonth: prng.int(1, 12),
    expYear: expiry.getUTCFullYear() + 3,
    cardholderName: (store.customers.get(customerId)!.fullName as string).toUpperCase(),
    createdAt: at,
  });
  const fundingSourceId = `CardFundingSource:${prng.uuid()}`;
  store.fundingSources.set(fundingSourceId, { id: fundingSourceId, cardId, accountId, status: 'ACTIVE', createdAt: at });

  const agentId = `Agent:${prng.uuid()}`;
  const agentToken = `agent_${nodeRandomBytes(24).toString('base64url')}`;
  store.agents.set(agentId, { id: agentId, customerId, token: agentToken, name: n === 1 ? 'Demo agent' : `Agent ${n}` });
  const owner = { agentId, customerId, platformCustomerId, accountId };
  for (const record of seedActions(prng, owner, now, input.actions ?? 45)) store.actions.set(record.action.id, record);

  return { customerId, platformCustomerId, accountId, ...(emailCredentialId ? { emailCredentialId } : {}), cardId, fundingSourceId, agentId, agentToken };
}

export function actionsOf(world: World, agentId: string): ActionRecord[] {
  return [...world.store.actions.values()].filter((r) => r.action.agentId === agentId);
}
