/**
 * Agent actions of the sandbox: seeded history in every status and type, new pending actions on
 * demand, and what approval and rejection do (api.md "AgentAction.status"; reference.md "Agents").
 * Shapes follow api.md "the service" (action), "Quote (as embedded in an action)" and
 * "Transaction (as embedded in an action)".
 *
 * Approval executes the pending transaction at once: APPROVED with a completed transaction, or
 * FAILED when the quote has expired by then (api.md: "for example quote expired"). A test control
 * can instead approve with the execution still in progress (APPROVED, transaction PENDING, not
 * settled) and end it later as COMPLETED or FAILED (api.md: FAILED is "Approved but execution
 * failed"). Deliberately not here: balances, settlement delays, webhooks.
 */
import type {
  AgentAction,
  AgentActionStatus,
  AgentActionType,
  Currency,
  Quote,
  Transaction,
} from '../core/types.ts';
import type { ActionRecord, Prng } from './state.ts';

const USD: Currency = { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 };
const CURRENCIES: Currency[] = [
  { code: 'EUR', name: 'Euro', symbol: '€', decimals: 2 },
  { code: 'MXN', name: 'Mexican Peso', symbol: '$', decimals: 2 },
  { code: 'BRL', name: 'Brazilian Real', symbol: 'R$', decimals: 2 },
  { code: 'GBP', name: 'Pound Sterling', symbol: '£', decimals: 2 },
  { code: 'BTC', name: 'Bitcoin', symbol: '₿', decimals: 8 },
];
const RATES: Record<string, number> = { EUR: 0.92, MXN: 17.1, BRL: 5.05, GBP: 0.79, BTC: 0.0000156 };
const NAMES = ['Ada Lovelace', 'Grace Hopper', 'Alan Turing', 'Katherine Johnson', 'Edsger Dijkstra', 'Barbara Liskov'];
const REJECTIONS = [
  'Amount above the daily agent budget',
  'Counterparty not recognised by the account holder',
  'Duplicate of an earlier request',
  'Declined by the account holder',
];
const FAILURES = ['QUOTE_EXPIRED', 'INSUFFICIENT_FUNDS', 'COUNTERPARTY_UNREACHABLE'];
const STATUSES: AgentActionStatus[] = ['PENDING_APPROVAL', 'APPROVED', 'REJECTED', 'FAILED'];
const TYPES: AgentActionType[] = ['EXECUTE_QUOTE', 'TRANSFER_OUT', 'TRANSFER_IN'];

/** How long a quote of a pending action stays executable. */
export const PENDING_QUOTE_LIFETIME_MS = 24 * 60 * 60 * 1000;

export interface ActionOwner {
  agentId: string;
  customerId: string;
  platformCustomerId: string;
  accountId: string;
}

const iso = (ms: number): string => new Date(ms).toISOString();

function hex(prng: Prng, n: number): string {
  return Array.from({ length: n }, () => prng.int(0, 15).toString(16)).join('');
}

function digits(prng: Prng, n: number): string {
  return Array.from({ length: n }, () => prng.int(0, 9)).join('');
}

function buildQuote(prng: Prng, owner: ActionOwner, createdMs: number, status: AgentActionStatus, transactionId: string): Quote {
  const receiving = prng.pick(CURRENCIES);
  const sending = prng.int(1_000, 250_000);
  const fees = prng.int(50, 500);
  const rate = RATES[receiving.code]!;
  const receivingAmount = Math.round(((sending - fees) / 100) * rate * 10 ** receiving.decimals);
  const spark = receiving.code === 'BTC';
  return {
    id: `Quote:${prng.uuid()}`,
    status: status === 'PENDING_APPROVAL' ? 'PENDING' : status === 'APPROVED' ? 'COMPLETED' : status === 'FAILED' ? 'FAILED' : 'CANCELLED',
    createdAt: iso(createdMs),
    expiresAt: iso(status === 'PENDING_APPROVAL' ? Math.max(createdMs, 0) + PENDING_QUOTE_LIFETIME_MS : createdMs + 5 * 60 * 1000),
    source: { sourceType: 'ACCOUNT', accountId: owner.accountId, customerId: owner.customerId },
    destination: {
      destinationType: spark ? 'SPARK_WALLET' : 'ACCOUNT',
      accountId: `ExternalAccount:${prng.uuid()}`,
      paymentRail: spark ? 'LIGHTNING' : prng.pick(['ACH', 'WIRE', 'SEPA', 'SPEI', 'PIX']),
    },
    sendingCurrency: USD,
    receivingCurrency: receiving,
    totalSendingAmount: sending,
    totalReceivingAmount: receivingAmount,
    exchangeRate: rate,
    feesIncluded: fees,
    transactionId,
    paymentInstructions: [
      spark
        ? {
            accountOrWalletInfo: {
              accountType: 'SPARK_WALLET',
              assetType: 'BTC',
              address: `sp1${hex(prng, 40)}`,
              invoice: `lnbc${prng.int(1, 999)}u1p${hex(prng, 48)}`,
            },
            instructionsNotes: 'Pay the invoice before the quote expires.',
          }
        : {
            accountOrWalletInfo: {
              accountType: 'USD_ACCOUNT',
              paymentRails: ['ACH', 'WIRE'],
              accountNumber: digits(prng, 10),
              routingNumber: '021000021',
              bankName: 'Sandbox Bank',
              reference: `REF-${hex(prng, 8).toUpperCase()}`,
            },
            instructionsNotes: 'Include the reference with the transfer.',
          },
    ],
    remittanceInformation: `Invoice ${prng.int(1000, 9999)}`,
    counterpartyInformation: { FULL_NAME: prng.pick(NAMES), BIRTH_DATE: `19${prng.int(50, 99)}-0${prng.int(1, 9)}-1${prng.int(0, 9)}`, NATIONALITY: prng.pick(['US', 'MX', 'BR', 'GB', 'DE']) },
    rateDetails: {
      counterpartyMultiplier: 1,
      counterpartyFixedFee: 0,
      gridApiMultiplier: rate,
      gridApiFixedFee: 25,
      gridApiVariableFeeRate: 0.003,
      gridApiVariableFeeAmount: Math.round(sending * 0.003),
    },
  };
}

/** The transaction an executed (or failed) action carries. */
export function buildTransaction(
  action: AgentAction,
  transactionId: string,
  outcome: 'PENDING' | 'COMPLETED' | 'FAILED',
  atMs: number,
  failureReason?: string,
): Transaction {
  const incoming = action.type === 'TRANSFER_IN';
  const quote = action.quote as (Quote & { destination?: { accountId?: string } }) | undefined;
  const currency = quote?.receivingCurrency ?? USD;
  const amount = quote?.totalReceivingAmount ?? action.transferDetails?.amount ?? 0;
  const sourceAccountId = action.transferDetails?.sourceAccountId ?? (quote?.source as { accountId?: string } | undefined)?.accountId;
  const destinationAccountId = action.transferDetails?.destinationAccountId ?? quote?.destination?.accountId;
  const ref = transactionId.slice(-12).toUpperCase();
  return {
    id: transactionId,
    status: outcome,
    type: incoming ? 'INCOMING' : 'OUTGOING',
    direction: incoming ? 'INCOMING' : 'OUTGOING',
    source: { sourceType: 'ACCOUNT', accountId: sourceAccountId, currency: USD.code },
    destination: {
      destinationType: 'ACCOUNT',
      accountId: destinationAccountId,
      currency: currency.code,
      ...(currency.code === 'BTC' ? { onChainTransaction: { transactionHash: `0x${ref.toLowerCase().padStart(64, '0')}`, network: 'SPARK' } } : {}),
    },
    customerId: action.customerId,
    platformCustomerId: action.platformCustomerId,
    receivedAmount: { amount, currency },
    ...(outcome === 'COMPLETED' ? { settledAt: iso(atMs), receiptDeliveryConfirmedAt: iso(atMs) } : {}),
    createdAt: action.createdAt,
    updatedAt: iso(atMs),
    agentId: action.agentId,
    description: action.type === 'EXECUTE_QUOTE' ? 'Quote execution by agent' : incoming ? 'Transfer in by agent' : 'Transfer out by agent',
    counterpartyInformation: (quote?.counterpartyInformation as Record<string, unknown> | undefined) ?? {},
    fees: quote?.feesIncluded ?? 0,
    reconciliationInstructions: { reference: `REF-${ref}` },
    rateDetails: { gridApiMultiplier: quote?.exchangeRate ?? 1, gridApiFixedFee: 25, gridApiVariableFeeRate: 0.003, gridApiVariableFeeAmount: 0 },
    ...(failureReason ? { failureReason } : {}),
  };
}

/** One action; `status` other than PENDING_APPROVAL produces its decided form. */
export function buildAction(
  prng: Prng,
  owner: ActionOwner,
  type: AgentActionType,
  status: AgentActionStatus,
  createdMs: number,
): ActionRecord {
  const transactionId = `Transaction:${prng.uuid()}`;
  const action: AgentAction = {
    id: `AgentAction:${prng.uuid()}`,
    agentId: owner.agentId as AgentAction['agentId'],
    customerId: owner.customerId as AgentAction['customerId'],
    platformCustomerId: owner.platformCustomerId,
    status: 'PENDING_APPROVAL',
    type,
    createdAt: iso(createdMs),
    updatedAt: iso(createdMs),
  };
  if (type === 'EXECUTE_QUOTE') {
    action.quote = buildQuote(prng, owner, createdMs, status, transactionId);
  } else {
    const external = `ExternalAccount:${prng.uuid()}`;
    action.transferDetails = {
      amount: prng.int(500, 500_000),
      currency: 'USD',
      sourceAccountId: type === 'TRANSFER_OUT' ? owner.accountId : external,
      destinationAccountId: type === 'TRANSFER_OUT' ? external : owner.accountId,
    };
  }
  const decidedMs = createdMs + prng.int(60_000, 3_600_000);
  if (status === 'APPROVED') {
    action.status = 'APPROVED';
    action.transaction = buildTransaction(action, transactionId, 'COMPLETED', decidedMs);
    action.updatedAt = iso(decidedMs);
  } else if (status === 'FAILED') {
    action.status = 'FAILED';
    action.transaction = buildTransaction(action, transactionId, 'FAILED', decidedMs, prng.pick(FAILURES));
    action.updatedAt = iso(decidedMs);
  } else if (status === 'REJECTED') {
    action.status = 'REJECTED';
    action.rejectionReason = prng.pick(REJECTIONS);
    action.updatedAt = iso(decidedMs);
  }
  return { action, pendingTransactionId: transactionId };
}

/**
 * A history of `count` actions covering every status x type pair, newest first, the newest a few
 * minutes before `nowMs` (pending ones recent, so their quotes are still executable).
 */
export function seedActions(prng: Prng, owner: ActionOwner, nowMs: number, count = 45): ActionRecord[] {
  const out: ActionRecord[] = [];
  let t = nowMs - 5 * 60 * 1000;
  for (let i = 0; i < count; i++) {
    const status = STATUSES[i % STATUSES.length]!;
    const type = TYPES[Math.floor(i / STATUSES.length) % TYPES.length]!;
    out.push(buildAction(prng, owner, type, status, t));
    t -= prng.int(10 * 60 * 1000, 6 * 60 * 60 * 1000);
  }
  return out;
}

/**
 * Approval (api.md: "Approved by the platform; execution in progress or complete"); `executing`
 * leaves the execution in progress, for `settleAction` to end.
 */
export function approveAction(record: ActionRecord, nowMs: number, executing = false): void {
  const action = record.action;
  const quoteExpired = action.quote !== undefined && Date.parse(action.quote.expiresAt) <= nowMs;
  if (quoteExpired) {
    action.status = 'FAILED';
    action.quote!.status = 'EXPIRED';
    action.transaction = buildTransaction(action, record.pendingTransactionId, 'FAILED', nowMs, 'QUOTE_EXPIRED');
  } else if (executing) {
    action.status = 'APPROVED';
    action.transaction = buildTransaction(action, record.pendingTransactionId, 'PENDING', nowMs);
  } else {
    settleAction(record, 'COMPLETED', nowMs);
  }
  action.updatedAt = iso(nowMs);
}

/** Ends an execution left in progress: APPROVED and completed, or FAILED with `failureReason`. */
export function settleAction(record: ActionRecord, outcome: 'COMPLETED' | 'FAILED', nowMs: number, failureReason?: string): void {
  const action = record.action;
  action.status = outcome === 'FAILED' ? 'FAILED' : 'APPROVED';
  if (action.quote) action.quote.status = outcome;
  action.transaction = buildTransaction(action, record.pendingTransactionId, outcome, nowMs, outcome === 'FAILED' ? (failureReason ?? 'INSUFFICIENT_FUNDS') : undefined);
  action.updatedAt = iso(nowMs);
}

export function rejectAction(record: ActionRecord, reason: string, nowMs: number): void {
  const action = record.action;
  action.status = 'REJECTED';
  action.rejectionReason = reason;
  if (action.quote) action.quote.status = 'CANCELLED';
  action.updatedAt = iso(nowMs);
}
