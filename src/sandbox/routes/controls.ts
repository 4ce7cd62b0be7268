/**
 * Test controls of the sandbox under `/sandbox/*` (Basic auth, outside the versioned base; not
 * part of the service): the fixtures, the clock (so expiry tests take milliseconds), fresh
 * customer sets so tests do not interfere, new pending agent actions, and the reveal audit log.
 *
 * Deliberately not here: anything that reads secrets back (session keys, OTP targets, delegated
 * private keys, reveal URLs stay inside).
 */
import { AGENT_ACTION_TYPES, type AgentActionType, type SandboxFixtures } from '../../core/types.ts';
import { approveAction, buildAction, settleAction } from '../agent-actions.ts';
import { requireBasic } from '../auth.ts';
import { HttpError, json, jsonObject, notFound, type Router } from '../http.ts';
import { issuerUrl } from '../oidc.ts';
import { SANDBOX_SIGNER_PUBLIC_KEY } from '../signer.ts';
import { E164, EMAIL, Fields, requireId } from '../validate.ts';
import { createCustomerSet, type CustomerSet, type World } from '../world.ts';
import { seedLists } from '../seed-lists.ts';

const MAX_ADVANCE_MS = 10 * 365 * 24 * 60 * 60 * 1000;

export function fixturesOf(world: World, seeded: CustomerSet): SandboxFixtures {
  return {
    baseUrl: `${world.origin}/2025-10-13`,
    tokenId: world.platform.tokenId,
    clientSecret: world.platform.clientSecret,
    impersonation: { tokenId: world.impersonation.tokenId, clientSecret: world.impersonation.clientSecret },
    signerPublicKey: SANDBOX_SIGNER_PUBLIC_KEY,
    processorOrigin: world.origin,
    oidcIssuer: issuerUrl(world),
    customerId: seeded.customerId as SandboxFixtures['customerId'],
    accountId: seeded.accountId as SandboxFixtures['accountId'],
    emailCredentialId: seeded.emailCredentialId as SandboxFixtures['emailCredentialId'],
    cardId: seeded.cardId as SandboxFixtures['cardId'],
    agentId: seeded.agentId as SandboxFixtures['agentId'],
    agentToken: seeded.agentToken,
  };
}

export function registerControlRoutes(router: Router, world: World, fixtures: () => SandboxFixtures): void {
  router.on('GET', '/sandbox/fixtures', (ctx) => {
    requireBasic(world, ctx);
    return json(200, fixtures());
  });

  router.on('GET', '/sandbox/clock', (ctx) => {
    requireBasic(world, ctx);
    return json(200, { now: new Date(world.clock.now()).toISOString(), nowMs: world.clock.now() });
  });

  router.on('POST', '/sandbox/clock', (ctx) => {
    requireBasic(world, ctx);
    if (!world.options.testClock) throw new HttpError(403, 'FORBIDDEN', 'The clock can be moved only when the sandbox runs with the test clock');
    const body = jsonObject(ctx);
    const advanceMs = body.advanceMs;
    if (typeof advanceMs !== 'number' || !Number.isSafeInteger(advanceMs) || advanceMs < 0 || advanceMs > MAX_ADVANCE_MS) {
      throw new HttpError(400, 'INVALID_INPUT', 'advanceMs: must be a non-negative integer of milliseconds', { errors: [{ field: 'advanceMs', message: 'must be a non-negative integer (ms)' }] });
    }
    world.clock.advance(advanceMs);
    return json(200, { now: new Date(world.clock.now()).toISOString(), nowMs: world.clock.now() });
  });

  // A fresh customer, wallet (with its EMAIL_OTP credential unless `emailCredential: false`), card,
  // funding source and agent with seeded actions (`actions`: how many, 0..10000, default 45; thousands
  // for tests of long lists); and, for tests of long lists too, `passkeys`, `sessions` and
  // `delegatedKeys` (0..10000 each, default 0: seed-lists.ts).
  router.on('POST', '/sandbox/accounts', async (ctx) => {
    requireBasic(world, ctx);
    const body = jsonObject(ctx, true);
    const f = new Fields(body);
    const email = f.string('email', { optional: true, max: 320, pattern: EMAIL });
    const phone = f.string('phone', { optional: true, max: 16, pattern: E164 });
    const name = f.string('name', { optional: true, max: 200 });
    let emailCredential = true;
    if (body.emailCredential !== undefined) emailCredential = f.boolean('emailCredential') ?? true;
    const count = (field: string, fallback: number): number => {
      const v = body[field];
      if (v === undefined) return fallback;
      if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 10000) return v;
      f.fail(field, 'must be an integer from 0 to 10000');
      return 0;
    };
    const actions = count('actions', 45);
    const lists = { passkeys: count('passkeys', 0), sessions: count('sessions', 0), delegatedKeys: count('delegatedKeys', 0) };
    f.check();
    const set = createCustomerSet(world, { ...(email ? { email } : {}), ...(phone ? { phone } : {}), ...(name ? { name } : {}), emailCredential, actions });
    await seedLists(world, set, lists);
    return json(201, set);
  });

  // A new PENDING_APPROVAL action of an agent (for approval-polling tests and the demo).
  router.on('POST', '/sandbox/agents/:agentId/actions', (ctx) => {
    requireBasic(world, ctx);
    const agentId = requireId('Agent', ctx.params.agentId, 'agentId');
    const body = jsonObject(ctx, true);
    const f = new Fields(body);
    let type: AgentActionType = 'EXECUTE_QUOTE';
    if (body.type !== undefined) type = f.enumOf('type', AGENT_ACTION_TYPES) ?? type;
    f.check();
    const agent = world.store.agents.get(agentId);
    if (!agent) throw notFound('Agent not found');
    const customer = world.store.customers.get(agent.customerId)!;
    const account = [...world.store.accounts.values()].find((a) => a.customerId === agent.customerId)!;
    const record = buildAction(
      world.prng,
      { agentId, customerId: agent.customerId, platformCustomerId: customer.platformCustomerId, accountId: account.id },
      type,
      'PENDING_APPROVAL',
      world.clock.now(),
    );
    world.store.actions.set(record.action.id, record);
    return json(201, record.action);
  });

  // An action's execution by hand: `status: PENDING` approves a PENDING_APPROVAL action with its
  // execution in progress; `COMPLETED` or `FAILED` (with `failureReason`) then ends that execution.
  router.on('POST', '/sandbox/agents/:agentId/actions/:actionId/execution', (ctx) => {
    requireBasic(world, ctx);
    const agentId = requireId('Agent', ctx.params.agentId, 'agentId');
    const actionId = requireId('AgentAction', ctx.params.actionId, 'actionId');
    const f = new Fields(jsonObject(ctx));
    const status = f.enumOf('status', ['PENDING', 'COMPLETED', 'FAILED'] as const);
    const failureReason = f.string('failureReason', { optional: true, max: 100 });
    f.check();
    const record = world.store.actions.get(actionId);
    if (!record || record.action.agentId !== agentId) throw notFound('Action not found');
    const { action } = record;
    const now = world.clock.now();
    if (status === 'PENDING') {
      if (action.status !== 'PENDING_APPROVAL') throw new HttpError(409, 'ACTION_NOT_PENDING', `The action is ${action.status}, not PENDING_APPROVAL`);
      approveAction(record, now, true);
    } else {
      if (action.status !== 'APPROVED' || action.transaction?.status !== 'PENDING') throw new HttpError(409, 'ACTION_NOT_EXECUTING', 'The action has no execution in progress');
      settleAction(record, status!, now, failureReason);
    }
    return json(200, action);
  });

  router.on('GET', '/sandbox/audit/reveals', (ctx) => {
    requireBasic(world, ctx);
    return json(200, { data: world.store.revealAudit });
  });
}
