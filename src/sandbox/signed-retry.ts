/**
 * The signed-retry engine of the sandbox, one for every operation that needs a wallet signature
 * (api.md "Signed-retry pattern (shared)"; DESIGN.md wire format 7). A first call gets
 * `202 {payloadToSign, requestId, expiresAt, type?}`; the retry repeats the exact body bytes with
 * `Service-Wallet-Signature` (a stamp, DESIGN.md wire format 1) and `Request-Id`.
 *
 * Checks on a retry, in this order, each with its own 401 code (api.md "Errors"):
 *   1. signature without Request-Id            -> REQUEST_ID_MISSING
 *   2. Request-Id without signature            -> WALLET_SIGNATURE_MISSING
 *   3. request id unknown, issued for another operation, already used, or past expiresAt
 *                                              -> UNAUTHORIZED with details.reason (api.md gives
 *      "Reuse returns 401" but no code; the reasons are REQUEST_ID_UNKNOWN, REQUEST_ID_CONSUMED,
 *      REQUEST_ID_EXPIRED). From here on the id is consumed, whatever the outcome: single use.
 *   4. stamp cannot be parsed                  -> WALLET_SIGNATURE_MALFORMED
 *   5. body bytes differ from the first leg    -> WALLET_SIGNATURE_BODY_MISMATCH
 *   6. signature wrong                         -> WALLET_SIGNATURE_INVALID
 *   7. the operation's own preconditions, when it gives them again (`recheck`) -> its own error
 *   8. the key is not an active session of the account (or not the one key the operation requires)
 *                                              -> WALLET_SIGNATURE_INVALID
 * An operation may take more than one signature (delegated keys take two, reference.md): each
 * valid retry before the last answers another 202 with a fresh payload and request id, and the
 * outcome names the operation (`flow`, one id for all its signatures) so that its route can keep
 * what the signatures so far did (a PENDING delegated key) and finish that at the last.
 * Where api.md says the two headers are "ignored on the first call" (delegated-key creation), a call
 * is the retry only when its Request-Id is one issued for this operation; any other call is a first
 * call, whatever headers it carries, and gets the first 202 (checks 1 and 3 do not apply to it).
 *
 * payloadToSign is JSON written with `": "` and `", "` separators on purpose: a client that
 * re-serializes it instead of stamping the bytes as received produces a different string and fails.
 * Deliberately not here: what the operation does once signed (its route does that).
 */
import { createHash, randomUUID } from 'node:crypto';
import { WALLET_SIGNATURE_HEADER } from '../core/stamp.ts';
import { REQUEST_ID_HEADER } from '../core/signed-retry.ts';
import { parseStamp, verifyStamp } from './service-stamps.ts';
import type { CredentialType, SignedRequestChallenge } from '../core/types.ts';
import { HttpError, json, type Ctx, type Reply } from './http.ts';
import { isLive, type SessionRecord, type Store } from './state.ts';

export interface PendingRequest {
  requestId: string;
  payloadToSign: string;
  expiresAtMs: number;
  bodyHash: string;
  method: string;
  path: string;
  accountIds: string[];
  /** Which signature of the operation this request collects (1-based). */
  step: number;
  /** The operation, the same for all its signatures. */
  flow: string;
  consumed: boolean;
}

export interface GateSpec {
  /** Activity name inside payloadToSign (e.g. ACTIVITY_TYPE_CREATE_AUTHENTICATORS). */
  activity: string;
  /** Accounts whose active sessions may sign. */
  accountIds: string[];
  /** Summary of the request, inside payloadToSign. */
  parameters?: Record<string, unknown>;
  /** Echoed as `type` in the 202 (credential create/revoke, session revoke, OTP verify). */
  type?: CredentialType;
  /** Signatures the operation takes (default 1). */
  signatures?: number;
  /** A payload of the operation's own (OTP verify: a verification token) instead of the activity JSON. */
  payload?: () => Promise<string> | string;
  /** When set, only this key (compressed hex) may sign, session or not (OTP verify). */
  requiredPublicKey?: string;
  /** Extra rule on the signing session (revocation: a different credential; refresh: that session). */
  acceptSession?: (session: SessionRecord) => boolean;
  /** The headers are "ignored on the first call" (api.md, delegated-key creation): see the header. */
  firstCallIgnoresHeaders?: boolean;
  /**
   * The operation's own preconditions, run again once the signature verified (after the last await)
   * and before the signing session is looked up: a concurrent call that changed that state meanwhile
   * (a refresh that ended the session) is then refused with the operation's own error, not as a bad
   * signature. Throws an HttpError to refuse.
   */
  recheck?: () => void;
}

export type GateOutcome =
  /** `flow`: set when a signature before the last was just taken (the operation it belongs to). */
  | { done: false; reply: Reply; flow?: string }
  | { done: true; signer: SessionRecord | null; publicKey: string; flow: string };

const MAX_PENDING = 20_000;

/** JSON with `": "` and `", "` separators (see the header). */
export function spacedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(spacedJson).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${spacedJson(v)}`).join(', ')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function bodyHash(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

const header = (ctx: Ctx, name: string): string | undefined => {
  const v = ctx.header(name);
  return v === undefined || v === '' ? undefined : v;
};

export class SignedRetryEngine {
  private readonly pending = new Map<string, PendingRequest>();

  constructor(
    private readonly store: Store,
    private readonly now: () => number,
    private readonly windowMs: number,
  ) {}

  async gate(ctx: Ctx, spec: GateSpec): Promise<GateOutcome> {
    const signature = header(ctx, WALLET_SIGNATURE_HEADER);
    const requestId = header(ctx, REQUEST_ID_HEADER);
    // Looked up before any await, with the consumption below (two concurrent retries cannot both pass).
    const pending = requestId === undefined ? undefined : this.pending.get(requestId);
    const issuedHere = pending !== undefined && pending.method === ctx.method && pending.path === ctx.path;
    if ((signature === undefined && requestId === undefined) || (spec.firstCallIgnoresHeaders && !issuedHere)) {
      return { done: false, reply: await this.issue(ctx, spec, 1, randomUUID()) };
    }
    if (requestId === undefined) {
      throw new HttpError(401, 'REQUEST_ID_MISSING', `${REQUEST_ID_HEADER} is required with ${WALLET_SIGNATURE_HEADER}`);
    }
    if (signature === undefined) {
      throw new HttpError(401, 'WALLET_SIGNATURE_MISSING', `${WALLET_SIGNATURE_HEADER} is required with ${REQUEST_ID_HEADER}`);
    }

    if (!pending || !issuedHere) {
      throw requestIdRefused('REQUEST_ID_UNKNOWN', 'The Request-Id was not issued for this operation; start the signed retry over');
    }
    if (pending.consumed) {
      throw requestIdRefused('REQUEST_ID_CONSUMED', 'The Request-Id was already used; start the signed retry over');
    }
    if (pending.expiresAtMs <= this.now()) {
      pending.consumed = true;
      throw requestIdRefused('REQUEST_ID_EXPIRED', 'The Request-Id has expired; start the signed retry over');
    }
    pending.consumed = true;

    try {
      parseStamp(signature);
    } catch {
      throw new HttpError(401, 'WALLET_SIGNATURE_MALFORMED', `${WALLET_SIGNATURE_HEADER} cannot be parsed`);
    }
    if (bodyHash(ctx.rawBody) !== pending.bodyHash) {
      throw new HttpError(401, 'WALLET_SIGNATURE_BODY_MISMATCH', 'The body differs from the request that issued this Request-Id');
    }
    let verified;
    try {
      verified = await verifyStamp(signature, pending.payloadToSign);
    } catch {
      throw new HttpError(401, 'WALLET_SIGNATURE_MALFORMED', `${WALLET_SIGNATURE_HEADER} cannot be parsed`);
    }
    if (!verified) throw invalid('The wallet signature does not verify over payloadToSign');
    const publicKey = verified.publicKey.toLowerCase();
    spec.recheck?.();

    let signer: SessionRecord | null = null;
    if (spec.requiredPublicKey !== undefined) {
      if (publicKey !== spec.requiredPublicKey.toLowerCase()) throw invalid('The wallet signature is not from the required key');
    } else {
      const now = this.now();
      // One key may be the key of several live sessions: the operation's rule picks among them all.
      const sessions = [...this.store.sessions.values()].filter(
        (s) => s.publicKey === publicKey && isLive(s, now) && pending.accountIds.includes(s.session.accountId),
      );
      if (sessions.length === 0) throw invalid('The signing key is not an active session of this account');
      signer = sessions.find((s) => !spec.acceptSession || spec.acceptSession(s)) ?? null;
      if (!signer) throw invalid('This session may not authorize this operation');
    }

    const required = spec.signatures ?? 1;
    const { flow } = pending;
    if (pending.step < required) {
      return { done: false, reply: await this.issue(ctx, spec, pending.step + 1, flow), flow };
    }
    return { done: true, signer, publicKey, flow };
  }

  private async issue(ctx: Ctx, spec: GateSpec, step: number, flow: string): Promise<Reply> {
    const now = this.now();
    this.prune(now);
    const requestId = `Request:${randomUUID()}`;
    const payloadToSign = spec.payload
      ? await spec.payload()
      : spacedJson({
          type: spec.activity,
          timestampMs: String(now),
          organizationId: spec.accountIds[0],
          requestId,
          ...(spec.signatures && spec.signatures > 1 ? { signature: `${step} of ${spec.signatures}` } : {}),
          parameters: spec.parameters ?? {},
        });
    const record: PendingRequest = {
      requestId,
      payloadToSign,
      expiresAtMs: now + this.windowMs,
      bodyHash: bodyHash(ctx.rawBody),
      method: ctx.method,
      path: ctx.path,
      accountIds: spec.accountIds,
      step,
      flow,
      consumed: false,
    };
    this.pending.set(requestId, record);
    const body: SignedRequestChallenge = {
      payloadToSign,
      requestId: requestId as SignedRequestChallenge['requestId'],
      expiresAt: new Date(record.expiresAtMs).toISOString(),
      ...(spec.type ? { type: spec.type } : {}),
    };
    return json(202, body);
  }

  /** Forgets requests well past expiry, and the oldest ones beyond a bound (fuzzing issues many). */
  private prune(now: number): void {
    for (const [id, p] of this.pending) {
      if (p.expiresAtMs + this.windowMs < now) this.pending.delete(id);
    }
    while (this.pending.size >= MAX_PENDING) {
      const oldest = this.pending.keys().next().value;
      if (oldest === undefined) break;
      this.pending.delete(oldest);
    }
  }
}

function requestIdRefused(reason: string, message: string): HttpError {
  return new HttpError(401, 'UNAUTHORIZED', message, { reason });
}

function invalid(message: string): HttpError {
  return new HttpError(401, 'WALLET_SIGNATURE_INVALID', message);
}
