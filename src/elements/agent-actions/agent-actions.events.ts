/**
 * The events <agent-actions> dispatches, as small classes (bubbling, composed). Details carry the
 * action as the service returned it; the agent's token is never part of any detail.
 */
import { WalletEvent, type ErrorDetail } from '../shared/events.ts';
import type { AgentAction, AgentActionStatus } from '../../core/types.ts';
import type { AgentActionsErrorCode } from './agent-actions.machine.ts';

/** An action's status changed while the element watched it (an approval decision arrived). */
export class AgentActionChangedEvent extends WalletEvent<{ action: AgentAction; previousStatus: AgentActionStatus }> {
  constructor(action: AgentAction, previousStatus: AgentActionStatus) {
    super('agent-action-changed', { action, previousStatus });
  }
}

export interface AgentActionsErrorDetail extends ErrorDetail {
  code: AgentActionsErrorCode;
  /** What failed: the list, "load more", or the background check for decisions. */
  operation: 'load' | 'load-more' | 'poll';
}

export class AgentActionsErrorEvent extends WalletEvent<AgentActionsErrorDetail> {
  constructor(detail: AgentActionsErrorDetail) {
    super('agent-actions-error', detail);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'agent-action-changed': AgentActionChangedEvent;
    'agent-actions-error': AgentActionsErrorEvent;
  }
}
