/**
 * Resource and request shapes of the service, as spec/api.md and spec/reference.md describe them
 * (interface 2025-10-13). Declared once here; the client, the proxy, the sandbox and the elements
 * all import them from this file. Wire names are kept exactly (`clientDataJson`, not `clientDataJSON`).
 */

/** `<Type>:<uuid>` identifiers (api.md, "Identifiers"). */
export type Id<T extends string> = `${T}:${string}`;

export const CREDENTIAL_TYPES = ['EMAIL_OTP', 'SMS_OTP', 'PASSKEY', 'OAUTH'] as const;
export type CredentialType = (typeof CREDENTIAL_TYPES)[number];

export const DELEGATED_KEY_STATUSES = ['PENDING', 'ACTIVE', 'REVOKED'] as const;
export type DelegatedKeyStatus = (typeof DELEGATED_KEY_STATUSES)[number];

export const AGENT_ACTION_STATUSES = ['PENDING_APPROVAL', 'APPROVED', 'REJECTED', 'FAILED'] as const;
export type AgentActionStatus = (typeof AGENT_ACTION_STATUSES)[number];

export const AGENT_ACTION_TYPES = ['EXECUTE_QUOTE', 'TRANSFER_OUT', 'TRANSFER_IN'] as const;
export type AgentActionType = (typeof AGENT_ACTION_TYPES)[number];

/** The error body of every 4xx/5xx (api.md, "Errors"). */
export interface ErrorBody {
  status: number;
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/** The 202 body of every signed retry (reference.md, "SignedRequestChallenge"). */
export interface SignedRequestChallenge {
  payloadToSign: string;
  requestId: Id<'Request'>;
  expiresAt: string;
  /** Present on credential create/revoke, session revoke and OTP verify. */
  type?: CredentialType;
}

export interface AuthMethod {
  id: Id<'AuthMethod'>;
  accountId: Id<'InternalAccount'>;
  type: CredentialType;
  /** PASSKEY only: base64url of the WebAuthn rawId. */
  credentialId?: string;
  nickname: string;
  createdAt: string;
  updatedAt: string;
}

export interface AuthMethodResponse extends AuthMethod {
  otpEncryptionTargetBundle?: string;
}

export interface AuthSession extends Omit<AuthMethod, 'id'> {
  id: Id<'Session'>;
  expiresAt: string;
  /** OAUTH and PASSKEY (and possibly refresh) only; never on OTP sessions, never in lists. */
  encryptedSessionSigningKey?: string;
}

/** PASSKEY `/challenge` answer: the AuthMethod plus what the WebAuthn get ceremony needs. */
export interface PasskeyChallenge extends AuthMethod {
  credentialId: string;
  /** Lowercase hex; the WebAuthn challenge is its UTF-8 bytes (DESIGN.md wire format 6). */
  challenge: string;
  requestId: Id<'Request'>;
  expiresAt: string;
}

/** Base64url fields of a WebAuthn registration response, with the service's spelling. */
export interface PasskeyAttestation {
  credentialId: string;
  clientDataJson: string;
  attestationObject: string;
  transports?: Array<'usb' | 'nfc' | 'ble' | 'internal' | 'hybrid'>;
}

/** Base64url fields of a WebAuthn assertion, with the service's spelling. */
export interface PasskeyAssertion {
  credentialId: string;
  clientDataJson: string;
  authenticatorData: string;
  signature: string;
  userHandle?: string;
}

export type CreateCredentialRequest =
  | { type: 'EMAIL_OTP' | 'SMS_OTP'; accountId: string }
  | { type: 'OAUTH'; accountId: string; oidcToken: string }
  | { type: 'PASSKEY'; accountId: string; nickname: string; challenge: string; attestation: PasskeyAttestation };

export type VerifyCredentialRequest =
  | { type: 'EMAIL_OTP' | 'SMS_OTP'; encryptedOtpBundle: string }
  | { type: 'OAUTH'; oidcToken: string; clientPublicKey: string }
  | { type: 'PASSKEY'; assertion: PasskeyAssertion };

export interface SpendingLimit {
  /** `^[A-Z0-9]{3,16}$` */
  currencyCode: string;
  /** Smallest currency unit, >= 1. */
  maxPerTransaction: number;
}

export interface DelegatedKey {
  id: Id<'DelegatedKey'>;
  cardId: Id<'Card'>;
  fundingSourceId: Id<'CardFundingSource'>;
  accountId: Id<'InternalAccount'>;
  /** Compressed P-256 public key, hex. */
  publicKey: string;
  nickname: string;
  status: DelegatedKeyStatus;
  spendingLimits?: SpendingLimit[];
  createdAt: string;
  updatedAt: string;
}

export interface CreateDelegatedKeyRequest {
  cardId: string;
  internalAccountId: string;
  nickname: string;
  spendingLimits?: SpendingLimit[];
}

export interface CardRevealResponse {
  /** A short-lived bearer secret: render at once, never store, cache or log. */
  panEmbedUrl: string;
  expiresAt: string;
}

export interface Currency {
  code: string;
  name: string;
  symbol: string;
  decimals: number;
}

export interface TransferDetails {
  amount: number;
  currency: string;
  sourceAccountId: string;
  destinationAccountId: string;
}

/** Quote as embedded in an action; the fields the library reads are typed, the rest pass through. */
export interface Quote {
  id: string;
  status: string;
  createdAt: string;
  expiresAt: string;
  sendingCurrency?: Currency;
  receivingCurrency?: Currency;
  totalSendingAmount?: number;
  totalReceivingAmount?: number;
  exchangeRate?: number;
  feesIncluded?: number;
  transactionId?: string;
  [field: string]: unknown;
}

export interface Transaction {
  id: string;
  status: string;
  type?: string;
  direction?: string;
  receivedAmount?: { amount: number; currency: Currency };
  createdAt?: string;
  updatedAt?: string;
  settledAt?: string;
  description?: string;
  failureReason?: string;
  [field: string]: unknown;
}

export interface AgentAction {
  id: Id<'AgentAction'>;
  agentId: Id<'Agent'>;
  customerId: Id<'Customer'>;
  platformCustomerId: string;
  status: AgentActionStatus;
  type: AgentActionType;
  createdAt: string;
  updatedAt: string;
  quote?: Quote;
  transferDetails?: TransferDetails;
  transaction?: Transaction;
  rejectionReason?: string;
}

export interface AgentActionList {
  data: AgentAction[];
  hasMore: boolean;
  nextCursor?: string;
  totalCount?: number;
}

export interface ListResponse<T> {
  data: T[];
}

export interface ExportResponse {
  id: string;
  /** A signed enclave envelope (like a target bundle) whose data holds {encappedPublic, ciphertext, organizationId}. */
  encryptedWalletCredentials: string;
}

export interface InternalAccount {
  id: Id<'InternalAccount'>;
  customerId?: string;
  privateEnabled?: boolean;
  [field: string]: unknown;
}

export interface Customer {
  id: Id<'Customer'>;
  email?: string;
  phone?: string;
  [field: string]: unknown;
}

/** The first stdout line of `npm run sandbox` and the body of `GET /sandbox/fixtures`. */
export interface SandboxFixtures {
  baseUrl: string;
  tokenId: string;
  clientSecret: string;
  impersonation: { tokenId: string; clientSecret: string };
  /** Uncompressed hex of the sandbox's target-bundle and export-envelope signer. */
  signerPublicKey: string;
  processorOrigin: string;
  oidcIssuer: string;
  customerId: Id<'Customer'>;
  accountId: Id<'InternalAccount'>;
  emailCredentialId: Id<'AuthMethod'>;
  cardId: Id<'Card'>;
  agentId: Id<'Agent'>;
  agentToken: string;
}
