// Bounded property-based fuzzing of the sandbox (fast-check): malformed bodies, ids, query strings
// and headers thrown at every route must never produce a 5xx or stop the server, and every JSON
// error must be in the service's error shape (api.md "Errors").
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { base64urlEncode, utf8Encode } from '../../../src/core/encoding.ts';
import { Api, withSandbox } from './helpers.ts';
import { outsideRoutes, serviceRoutes, type RouteSample } from './routes.ts';

const RUNS = Number(process.env.SANDBOX_FUZZ_RUNS ?? 300);
let api: Api;
let internalErrors = 0;
const originalError = console.error;

before(async () => {
  api = await withSandbox();
  console.error = (...args: unknown[]) => {
    if (String(args[0]).startsWith('sandbox: internal error')) internalErrors++;
    originalError(...args);
  };
});
after(async () => {
  console.error = originalError;
  await api.sandbox.close();
});

const printable = (s: string): string => s.replace(/[^\x20-\x7e]/g, '');
const z = '00000000-0000-4000-8000-000000000000';

describe('fuzz', () => {
  test(`${RUNS} malformed requests: no 5xx, no crash, errors in the service's shape`, { timeout: 60_000 }, async () => {
    const fx = api.fx;
    const routes: RouteSample[] = [...serviceRoutes(fx), ...outsideRoutes(fx)];
    const ids = [fx.accountId, fx.emailCredentialId, fx.cardId, fx.agentId, fx.customerId, `Session:${z}`, `DelegatedKey:${z}`, `Request:${z}`, `AgentAction:${z}`, `CardFundingSource:${z}`];

    const weirdSegment = fc.oneof(
      fc.constantFrom(...ids),
      fc.string({ maxLength: 80 }).map((s) => encodeURIComponent(s)),
      fc.constantFrom('%', '%ZZ', '%00', '..', '.', 'Card:', `Card:${z}x`, 'x'.repeat(5000), '%E0%A4%A', encodeURIComponent('Card:' + z).toLowerCase()),
    );
    const path = fc.oneof(
      fc.constantFrom(...routes).map((r) => ({ route: r, path: r.path })),
      // The same routes with one segment swapped for something malformed.
      fc.tuple(fc.constantFrom(...routes), weirdSegment, fc.nat()).map(([r, seg, i]) => {
        const [p, q] = r.path.split('?');
        const parts = p!.split('/');
        parts[1 + (i % (parts.length - 1))] = seg;
        return { route: r, path: parts.join('/') + (q ? `?${q}` : '') };
      }),
      // Random query strings.
      fc.tuple(fc.constantFrom(...routes), fc.dictionary(fc.constantFrom('accountId', 'fundingSourceId', 'status', 'limit', 'cursor', 'token', 'redirect_uri', 'response_type', 'nonce', 'state', 'x'), fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom(...ids), fc.constantFrom('0', '101', '20', 'APPROVED', 'id_token', 'http://localhost:1/cb')))).map(([r, q]) => ({
        route: r,
        path: `${r.path.split('?')[0]}?${new URLSearchParams(q)}`,
      })),
    );
    const fieldValue = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.constantFrom(...ids, 'EMAIL_OTP', 'SMS_OTP', 'PASSKEY', 'OAUTH', '04' + 'ab'.repeat(64), '04' + '00'.repeat(64), '', 'x'.repeat(300), -1, 0, 1.5, 2 ** 60, true, null),
      fc.record({ credentialId: fc.string(), clientDataJson: fc.string(), attestationObject: fc.string(), authenticatorData: fc.string(), signature: fc.string() }, { requiredKeys: [] }),
      fc.array(fc.record({ currencyCode: fc.oneof(fc.string(), fc.constantFrom('USD', 'EUR')), maxPerTransaction: fc.oneof(fc.integer(), fc.double(), fc.string()) }, { requiredKeys: [] }), { maxLength: 4 }),
    );
    const body = fc.oneof(
      fc.constant(undefined),
      fc.dictionary(
        fc.constantFrom('type', 'accountId', 'oidcToken', 'nickname', 'challenge', 'attestation', 'assertion', 'encryptedOtpBundle', 'clientPublicKey', 'cardId', 'internalAccountId', 'spendingLimits', 'privateEnabled', 'email', 'phone', 'reason', 'advanceMs', 'sub', 'aud', 'nonce', 'actions', 'emailCredential', '__proto__', 'constructor'),
        fieldValue,
        { maxKeys: 6 },
      ).map((o) => JSON.stringify(o)),
      fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
      fc.string({ maxLength: 200 }),
      fc.constantFrom('{', '{"a":', '\u0000', '[]'.repeat(1000), '{"type":"EMAIL_OTP","encryptedOtpBundle":"{\\"encappedPublic\\":\\"04' + 'ab'.repeat(64) + '\\",\\"ciphertext\\":\\"' + 'ab'.repeat(40) + '\\"}"}'),
    );
    const stampLike = fc.oneof(
      fc.string({ maxLength: 100 }).map(printable),
      fc.record({ publicKey: fc.oneof(fc.string(), fc.constantFrom('02' + 'ab'.repeat(32), '03' + 'ff'.repeat(32))), scheme: fc.constantFrom('SIGNATURE_SCHEME_TK_API_P256', 'x'), signature: fc.oneof(fc.string(), fc.constantFrom('3006020101020101', '30')) }, { requiredKeys: [] }).map((o) =>
        base64urlEncode(utf8Encode(JSON.stringify(o))),
      ),
    );
    const headers = fc.record(
      {
        auth: fc.oneof({ arbitrary: fc.constant('route'), weight: 4 }, { arbitrary: fc.constantFrom('basic', 'impersonation', 'none', 'agent', 'garbage', 'bearer-garbage'), weight: 1 }),
        signature: fc.option(stampLike, { nil: undefined }),
        requestId: fc.option(fc.oneof(fc.constant(`Request:${z}`), fc.string({ maxLength: 60 }).map(printable)), { nil: undefined }),
        contentType: fc.option(fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', ''), { nil: undefined }),
      },
      { requiredKeys: ['auth'] },
    );
    // Mostly the route's own method and caller, so requests reach the handlers.
    const method = fc.oneof({ arbitrary: fc.constant('ROUTE'), weight: 4 }, { arbitrary: fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'OPTIONS'), weight: 1 });

    let count = 0;
    const statuses = new Map<number, number>();
    const started = Date.now();
    await fc.assert(
      fc.asyncProperty(path, method, body, headers, async (p, m, b, h) => {
        count++;
        const actualMethod = m === 'ROUTE' ? p.route.method : m;
        const hdr: Record<string, string> = {};
        const who = h.auth === 'route' ? (p.route.auth === 'agent' ? 'agent' : p.route.auth === 'none' ? 'none' : 'basic') : h.auth;
        const auth = who === 'basic' || who === 'impersonation' ? api.authHeader(who) : who === 'agent' ? `Bearer ${fx.agentToken}` : who === 'garbage' ? 'Basic Zm9v' : who === 'bearer-garbage' ? 'Bearer x' : undefined;
        if (auth) hdr.authorization = auth;
        if (h.signature !== undefined) hdr['Service-Wallet-Signature'] = h.signature;
        if (h.requestId !== undefined) hdr['Request-Id'] = h.requestId;
        if (h.contentType !== undefined) hdr['content-type'] = h.contentType;
        const url = (p.route.outside ? api.sandbox.url : fx.baseUrl) + p.path;
        const sendBody = actualMethod === 'GET' || actualMethod === 'HEAD' ? undefined : b;
        const res = await fetch(url, { method: actualMethod, headers: hdr, body: sendBody, redirect: 'manual' });
        const text = await res.text();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        assert.ok(res.status < 500, `${actualMethod} ${p.path} -> ${res.status} ${text.slice(0, 300)}`);
        if ((res.headers.get('content-type') ?? '').includes('application/json') && res.status >= 400) {
          const e = JSON.parse(text);
          // The issuer's code exchange answers in OAuth's error shape (RFC 6749 §5.2), not the service's.
          if (p.route.path === '/oidc/token' && typeof e.error === 'string') {
            assert.ok(['invalid_request', 'invalid_grant', 'unsupported_grant_type'].includes(e.error), e.error);
            assert.equal(typeof e.error_description, 'string');
            return;
          }
          assert.equal(e.status, res.status);
          assert.equal(typeof e.code, 'string');
          assert.equal(typeof e.message, 'string');
        }
      }),
      { numRuns: RUNS, seed: process.env.SANDBOX_FUZZ_SEED ? Number(process.env.SANDBOX_FUZZ_SEED) : undefined },
    );
    const ms = Date.now() - started;
    assert.equal(count, RUNS);
    // The requests reached the handlers, not only the auth and routing layers.
    const reached = [...statuses].filter(([st]) => st !== 401 && st !== 404 && st !== 405).reduce((n, [, c]) => n + c, 0);
    assert.ok(reached >= RUNS / 5, `at least a fifth got past auth and routing: ${JSON.stringify([...statuses])}`);
    assert.ok([...statuses.keys()].some((st) => st >= 200 && st < 300), 'some succeeded');
    assert.ok((statuses.get(400) ?? 0) > 0, 'some were refused as invalid input');
    assert.equal(internalErrors, 0, 'no internal error was logged');
    assert.ok(ms < 30_000, `bounded in time (${ms} ms)`);
    // Still serving, and still right.
    const alive = await api.call('GET', '/sandbox/fixtures', { outside: true });
    assert.equal(alive.status, 200);
    await api.otpLogin((await api.newAccount()).emailCredentialId);
  });
});
