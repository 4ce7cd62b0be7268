/**
 * Wallet operations behind the signed retry (reference.md "Wallet operations that use the signed
 * retry"): export of the recovery phrase sealed to a fresh client key in a signed envelope,
 * wallet privacy, and customer contact updates that sync tied OTP credentials (api.md: "the tied
 * credential email is synced with the customer email"). Plain reads of the account and customer
 * are here too, so tests and the demo can see the result. An unknown customer is
 * `404 USER_NOT_FOUND` (api.md "Errors"; USER_NOT_READY is glossed there "customer not ready").
 *
 * Every wallet's recovery phrase is the same published BIP-39 test phrase: it is a test value,
 * worth nothing. Deliberately not here: balances, transfers, KYC.
 */
import { hexToBytes } from '../../core/encoding.ts';
import { createExportEnvelope } from '../service-bundles.ts';
import type { Customer } from '../../core/types.ts';
import { requireBasic } from '../auth.ts';
import { badRequest, json, jsonObject, notFound, type Router } from '../http.ts';
import type { AccountRecord, CustomerRecord } from '../state.ts';
import { E164, EMAIL, Fields, requireId } from '../validate.ts';
import type { World } from '../world.ts';

/** The BIP-39 test vector phrase (all-zero entropy): every sandbox wallet exports it. */
export const SANDBOX_WALLET_PHRASE = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';

function customerView(c: CustomerRecord): Customer {
  return { ...c };
}

export function registerWalletRoutes(router: Router, world: World): void {
  const { store } = world;
  const iso = (): string => new Date(world.clock.now()).toISOString();

  function accountOr404(id: string): AccountRecord {
    const a = store.accounts.get(id);
    if (!a) throw notFound('Internal account not found');
    return a;
  }

  router.on('GET', '/internal-accounts/:id', (ctx) => {
    requireBasic(world, ctx);
    return json(200, accountOr404(requireId('InternalAccount', ctx.params.id, 'id')));
  });

  router.on('POST', '/internal-accounts/:id/export', async (ctx) => {
    requireBasic(world, ctx);
    const id = requireId('InternalAccount', ctx.params.id, 'id');
    const f = new Fields(jsonObject(ctx));
    const clientPublicKey = f.uncompressedKey('clientPublicKey');
    f.check();
    accountOr404(id);
    const gate = await world.retry.gate(ctx, {
      activity: 'ACTIVITY_TYPE_EXPORT_WALLET',
      accountIds: [id],
      parameters: { walletId: id, targetPublicKey: clientPublicKey },
    });
    if (!gate.done) return gate.reply;
    const encryptedWalletCredentials = await createExportEnvelope({
      plaintext: SANDBOX_WALLET_PHRASE,
      clientPublicKey: hexToBytes(clientPublicKey!),
      signer: world.signer,
      organizationId: id,
    });
    return json(200, { id, encryptedWalletCredentials });
  });

  router.on('PATCH', '/internal-accounts/:id', async (ctx) => {
    requireBasic(world, ctx);
    const id = requireId('InternalAccount', ctx.params.id, 'id');
    const f = new Fields(jsonObject(ctx));
    const privateEnabled = f.boolean('privateEnabled');
    f.check();
    const account = accountOr404(id);
    const gate = await world.retry.gate(ctx, {
      activity: 'ACTIVITY_TYPE_UPDATE_WALLET_PRIVACY',
      accountIds: [id],
      parameters: { walletId: id, privateEnabled },
    });
    if (!gate.done) return gate.reply;
    account.privateEnabled = privateEnabled!;
    account.updatedAt = iso();
    return json(200, account);
  });

  router.on('GET', '/customers/:id', (ctx) => {
    requireBasic(world, ctx);
    const c = store.customers.get(requireId('Customer', ctx.params.id, 'id'));
    if (!c) throw notFound('Customer not found', 'USER_NOT_FOUND');
    return json(200, customerView(c));
  });

  // reference.md: `{email}` (email and phone change in separate calls); 202 when tied OTP credentials exist.
  router.on('PATCH', '/customers/:id', async (ctx) => {
    requireBasic(world, ctx);
    const id = requireId('Customer', ctx.params.id, 'id');
    const body = jsonObject(ctx);
    const f = new Fields(body);
    const hasEmail = body.email !== undefined;
    const hasPhone = body.phone !== undefined;
    if (hasEmail === hasPhone) {
      throw badRequest('Send exactly one of email or phone (they change in separate calls)', [
        { field: hasEmail ? 'phone' : 'email', message: hasEmail ? 'change phone in a separate call' : 'email or phone is required' },
      ]);
    }
    const email = hasEmail ? f.string('email', { max: 320, pattern: EMAIL }) : undefined;
    const phone = hasPhone ? f.string('phone', { max: 16, pattern: E164 }) : undefined;
    f.check();
    const customer = store.customers.get(id);
    if (!customer) throw notFound('Customer not found', 'USER_NOT_FOUND');
    const tiedType = hasEmail ? 'EMAIL_OTP' : 'SMS_OTP';
    const tied = (): ReturnType<typeof store.activeCredentials> =>
      [...store.accounts.values()]
        .filter((a) => a.customerId === id)
        .flatMap((a) => store.activeCredentials(a.id))
        .filter((c) => c.method.type === tiedType);
    const before = tied();
    if (before.length > 0) {
      const gate = await world.retry.gate(ctx, {
        activity: hasEmail ? 'ACTIVITY_TYPE_UPDATE_USER_EMAIL' : 'ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER',
        accountIds: [...new Set(before.map((c) => c.method.accountId))],
        parameters: { customerId: id, ...(hasEmail ? { email } : { phone }) },
      });
      if (!gate.done) return gate.reply;
    }
    const at = iso();
    if (hasEmail) customer.email = email!;
    else customer.phone = phone!;
    customer.updatedAt = at;
    for (const c of tied()) {
      c.method.nickname = hasEmail ? email! : phone!;
      c.method.updatedAt = at;
    }
    return json(200, customerView(customer));
  });
}
