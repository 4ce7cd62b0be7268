/**
 * The words of <agent-actions> in English (translations: src/locales/); every key is replaceable with
 * `setStrings(locale, {...})` (src/elements/shared/i18n.ts).
 */
import { registerDefaultStrings } from '../shared/i18n.ts';
import type { AgentActionsErrorCode } from './agent-actions.machine.ts';
import type { AgentActionStatus, AgentActionType } from '../../core/types.ts';

type Keys =
  | 'agent-actions.title'
  | 'agent-actions.filter'
  | 'agent-actions.filter.ALL'
  | `agent-actions.filter.${AgentActionStatus}`
  | `agent-actions.status.${AgentActionStatus}`
  | `agent-actions.type.${AgentActionType}`
  | 'agent-actions.type.other'
  | 'agent-actions.loading'
  | 'agent-actions.empty'
  | 'agent-actions.no-token'
  | 'agent-actions.count'
  /** The count when the service gave no total and another page can load. */
  | 'agent-actions.count-more'
  | 'agent-actions.load-more'
  | 'agent-actions.loading-more'
  | 'agent-actions.retry'
  | 'agent-actions.submitted'
  | 'agent-actions.amount'
  | 'agent-actions.from'
  | 'agent-actions.to'
  | 'agent-actions.send'
  | 'agent-actions.receive'
  | 'agent-actions.rate'
  | 'agent-actions.fees'
  /** The label of when the quote of an exchange waiting for approval expires. */
  | 'agent-actions.expires'
  | 'agent-actions.rejection'
  | 'agent-actions.transaction'
  | 'agent-actions.transaction-failed'
  /** A transaction's status and failure reason, for the values seen (api.md lists none). */
  | `agent-actions.transaction-status.${'PENDING' | 'COMPLETED' | 'FAILED' | 'CANCELLED'}`
  | `agent-actions.failure.${'QUOTE_EXPIRED' | 'INSUFFICIENT_FUNDS' | 'COUNTERPARTY_UNREACHABLE'}`
  /** Any other failure reason or transaction status: `{code}` is the service's, kept as it is for support. */
  | 'agent-actions.unknown-failure'
  | 'agent-actions.unknown-transaction-status'
  | 'agent-actions.waiting'
  /** New actions waiting for approval, said as they arrive: one, or `{count}` of them. */
  | 'agent-actions.waiting-one'
  | 'agent-actions.waiting-many'
  | 'agent-actions.poll-trouble'
  | 'agent-actions.decided'
  | 'agent-actions.with-amount'
  /** A 429 ("load more"'s, or a poll's): the button waits out the service's Retry-After. */
  | 'agent-actions.error.more-rate-limited'
  | `agent-actions.error.${AgentActionsErrorCode}`;

const en: Record<Keys, string> = {
  'agent-actions.title': 'Agent activity',
  'agent-actions.filter': 'Show',
  'agent-actions.filter.ALL': 'All actions',
  'agent-actions.filter.PENDING_APPROVAL': 'Waiting for approval',
  'agent-actions.filter.APPROVED': 'Approved',
  'agent-actions.filter.REJECTED': 'Rejected',
  'agent-actions.filter.FAILED': 'Failed',
  'agent-actions.status.PENDING_APPROVAL': 'Waiting for approval',
  'agent-actions.status.APPROVED': 'Approved',
  'agent-actions.status.REJECTED': 'Rejected',
  'agent-actions.status.FAILED': 'Failed',
  'agent-actions.type.EXECUTE_QUOTE': 'Currency exchange',
  'agent-actions.type.TRANSFER_OUT': 'Payment out',
  'agent-actions.type.TRANSFER_IN': 'Payment in',
  'agent-actions.type.other': 'Action',
  'agent-actions.loading': 'Loading actions…',
  'agent-actions.empty': 'No actions to show.',
  'agent-actions.no-token': 'Connect an agent to see its actions.',
  'agent-actions.count': 'Showing {shown} of {total}',
  'agent-actions.count-more': 'Showing {shown}; more can be loaded',
  'agent-actions.load-more': 'Load more',
  'agent-actions.loading-more': 'Loading more…',
  'agent-actions.retry': 'Try again',
  'agent-actions.submitted': 'Submitted {date}',
  'agent-actions.amount': 'Amount',
  'agent-actions.from': 'From',
  'agent-actions.to': 'To',
  'agent-actions.send': 'Sends',
  'agent-actions.receive': 'Receives',
  'agent-actions.rate': 'Rate',
  'agent-actions.fees': 'Fees',
  'agent-actions.expires': 'Quote expires',
  'agent-actions.rejection': 'Reason',
  'agent-actions.transaction': 'Transaction',
  'agent-actions.transaction-failed': 'Why it failed',
  'agent-actions.transaction-status.PENDING': 'pending',
  'agent-actions.transaction-status.COMPLETED': 'completed',
  'agent-actions.transaction-status.FAILED': 'failed',
  'agent-actions.transaction-status.CANCELLED': 'cancelled',
  'agent-actions.failure.QUOTE_EXPIRED': 'The quote expired before it was carried out.',
  'agent-actions.failure.INSUFFICIENT_FUNDS': 'Not enough funds.',
  'agent-actions.failure.COUNTERPARTY_UNREACHABLE': 'The recipient could not be reached.',
  'agent-actions.unknown-failure': 'Unknown reason. Give support this code: {code}',
  'agent-actions.unknown-transaction-status': 'status: {code}',
  'agent-actions.waiting': 'Checking for a decision…',
  'agent-actions.waiting-one': 'A new action is waiting for approval.',
  'agent-actions.waiting-many': '{count} new actions are waiting for approval.',
  'agent-actions.poll-trouble': 'Can’t check for updates right now. Retrying…',
  'agent-actions.decided': 'Decision: {action}, {status}.',
  'agent-actions.with-amount': '{action} of {amount}',
  'agent-actions.error.unauthorized': 'The agent’s access has expired or was revoked. Connect it again.',
  'agent-actions.error.session_required': 'Sign in to your account first, then try again.',
  'agent-actions.error.rate_limited': 'Too many requests. Wait a moment, then try again.',
  'agent-actions.error.more-rate-limited': 'Too many requests. “Load more” works again in a moment.',
  'agent-actions.error.server': 'Something went wrong on our side. Try again in a moment.',
  'agent-actions.error.network': 'We couldn’t reach the server. Check your connection and try again.',
  'agent-actions.error.load_failed': 'Part of this page couldn’t load. Check your connection, then reload the page.',
  'agent-actions.error.misconfigured': 'This page is not set up to reach the wallet service. Contact the site’s support.',
  'agent-actions.error.unexpected': 'Something unexpected happened. Try again.',
};

registerDefaultStrings({ en });

export const agentActionsStrings = { en } as const;
export type { Keys as AgentActionsStringKey };
