/**
 * The sandbox's in-memory records: customers, Embedded Wallet internal accounts, credentials
 * (AuthMethods) with their per-type secrets, sessions, cards and their funding sources, delegated
 * keys, agents and their actions. Shapes exposed on the wire come from src/core/types.ts; the
 * fields kept only here (keys, counters, OTP targets) never leave the process.
 *
 * Deliberately not here: persistence. Every start is a fresh world.
 */
import type { AgentAction, AuthMethod, AuthSession, Customer, DelegatedKey, InternalAccount } from '../core/types.ts';
import type { KeyPair, WebCryptoKey } from '../core/p256.ts';

/** Deterministic when seeded (mulberry32), so seeded data is reproducible; never used for secrets. */
export class Prng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  /** An RFC 9562 version-4-shaped UUID from the generator. */
  uuid(): string {
    const hex = Array.from({ length: 32 }, () => Math.floor(this.next() * 16).toString(16));
    hex[12] = '4';
    hex[16] = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
    const h = hex.join('');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }
}

export interface CustomerRecord extends Customer {
  platformCustomerId: string;
  email?: string;
  phone?: string;
  createdAt: string;
  updatedAt: string;
}

export interface AccountRecord extends InternalAccount {
  customerId: string;
  type: 'EMBEDDED_WALLET';
  status: 'ACTIVE';
  privateEnabled: boolean;
  createdAt: string;
  updatedAt: string;
}

/** The OTP target key of the latest challenge (one at a time per credential). */
export interface OtpTarget {
  key: KeyPair;
  issuedAt: number;
  expiresAt: number;
  failedAttempts: number;
}

export interface CredentialRecord {
  method: AuthMethod;
  revoked: boolean;
  /** OTP types: the current target, and when /challenge last sent a code (rate limit). */
  otpTarget?: OtpTarget;
  lastChallengeAt?: number;
  /** PASSKEY: what assertions are checked against. */
  passkey?: { credentialId: string; publicKey: Uint8Array; counter: number; transports?: string[] };
  /** OAUTH: the provider identity (normalized issuer) the credential is bound to. */
  oauth?: { iss: string; sub: string; aud: string };
}

export interface SessionRecord {
  session: AuthSession;
  /** The AuthMethod that produced the session (revoking it ends the session). */
  authMethodId: string;
  /** Compressed hex of the session's public key: the key its stamps carry. */
  publicKey: string;
  expiresAtMs: number;
  revoked: boolean;
}

export interface CardRecord {
  id: string;
  customerId: string;
  status: 'ACTIVE';
  pan: string;
  cvv: string;
  expMonth: number;
  expYear: number;
  cardholderName: string;
  createdAt: string;
}

export interface FundingSourceRecord {
  id: string;
  cardId: string;
  accountId: string;
  status: 'ACTIVE' | 'INACTIVE';
  createdAt: string;
}

export interface DelegatedKeyRecord {
  key: DelegatedKey;
  /** Custodied by the sandbox; never returned (api.md "Delegated signing keys"). */
  privateKey: WebCryptoKey;
  /** The signed retry that made it (signed-retry.ts `flow`), while PENDING: its last signature makes it ACTIVE. */
  flow?: string;
}

export interface AgentRecord {
  id: string;
  customerId: string;
  token: string;
  name: string;
}

export interface ActionRecord {
  action: AgentAction;
  /** The transaction an approval executes (api.md: "an action needing approval creates a pending transaction"). */
  pendingTransactionId: string;
}

/** One audited card reveal (api.md: "Every reveal is audit-logged with the requesting actor"). */
export interface RevealAudit {
  cardId: string;
  actor: string;
  at: string;
}

export class Store {
  readonly customers = new Map<string, CustomerRecord>();
  readonly accounts = new Map<string, AccountRecord>();
  readonly credentials = new Map<string, CredentialRecord>();
  readonly sessions = new Map<string, SessionRecord>();
  readonly cards = new Map<string, CardRecord>();
  readonly fundingSources = new Map<string, FundingSourceRecord>();
  readonly delegatedKeys = new Map<string, DelegatedKeyRecord>();
  readonly agents = new Map<string, AgentRecord>();
  readonly actions = new Map<string, ActionRecord>();
  /** WebAuthn registration challenges already used by a completed registration (single use). */
  readonly usedRegistrationChallenges = new Set<string>();
  readonly revealAudit: RevealAudit[] = [];

  activeCredentials(accountId: string): CredentialRecord[] {
    return [...this.credentials.values()].filter((c) => !c.revoked && c.method.accountId === accountId);
  }

  activeSessions(accountId: string, now: number): SessionRecord[] {
    return [...this.sessions.values()].filter((s) => s.session.accountId === accountId && isLive(s, now));
  }

  agentByToken(token: string): AgentRecord | undefined {
    for (const agent of this.agents.values()) if (agent.token === token) return agent;
    return undefined;
  }
}

export function isLive(s: SessionRecord, now: number): boolean {
  return !s.revoked && s.expiresAtMs > now;
}

/** The AuthSession as listed (never with a signing key). */
export function publicSession(s: SessionRecord): AuthSession {
  const { encryptedSessionSigningKey: _omit, ...rest } = s.session;
  return rest;
}
