// Card reveal and the sandbox's processor page (api.md "POST {base_url}/cards/{id}/reveal",
// "Condition rules"; reference.md "Cards"; DESIGN.md "Security rules").
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Api, assertError, ISO, withSandbox } from './helpers.ts';

let now = Date.parse('2030-01-01T00:00:00Z');
let api: Api;

before(async () => {
  api = await withSandbox({ now: () => now, revealLifetimeMs: 120_000 });
});
after(() => api.sandbox.close());

async function reveal(cardId = api.fx.cardId) {
  const r = await api.call('POST', `/cards/${cardId}/reveal`);
  assert.equal(r.status, 200, r.text);
  return r;
}

describe('card reveal', () => {
  test('200 {panEmbedUrl, expiresAt}: the processor page URL with a token, expiring after the lifetime, not cached', async () => {
    const r = await reveal();
    assert.deepEqual(Object.keys(r.body).sort(), ['expiresAt', 'panEmbedUrl']);
    assert.match(r.body.expiresAt, ISO);
    assert.equal(Date.parse(r.body.expiresAt) - now, 120_000);
    const url = new URL(r.body.panEmbedUrl);
    assert.equal(url.origin, api.fx.processorOrigin);
    assert.equal(url.pathname, '/processor/card');
    assert.ok(url.searchParams.get('token'));
    assert.match(r.headers.get('cache-control') ?? '', /no-store/);
    // Each reveal is a fresh URL.
    assert.notEqual((await reveal()).body.panEmbedUrl, r.body.panEmbedUrl);
  });

  test('the page shows the test card under a strict CSP, with no inline script or style, and never echoes the token', async () => {
    const r = await reveal();
    const token = new URL(r.body.panEmbedUrl).searchParams.get('token')!;
    const page = await fetch(r.body.panEmbedUrl);
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /\b4000 00\d{2} \d{4} \d{4}\b/, 'a 16-digit test PAN in groups');
    assert.match(html, /id="cvv">\d{3}</);
    assert.match(html, /id="exp">\d{2}\/\d{2}</);
    assert.ok(!html.includes(token), 'token not in the page');
    assert.ok(!html.includes(encodeURIComponent(token)));
    assert.ok(!/<script>/i.test(html) && !/<script(?![^>]*\bsrc=)/i.test(html), 'scripts only by src');
    assert.ok(!/\sstyle=|<style/i.test(html), 'no inline style');
    assert.ok(!/\son[a-z]+=/i.test(html), 'no inline handlers');
    const csp = page.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'/);
    assert.match(csp, /frame-ancestors /);
    assert.ok(!/unsafe-inline|unsafe-eval/.test(csp));
    assert.equal(page.headers.get('referrer-policy'), 'no-referrer');
    assert.match(page.headers.get('cache-control') ?? '', /no-store/);
    for (const [k, v] of page.headers) assert.ok(!v.includes(token), `token not in header ${k}`);
    // Its script and stylesheet are served by the same origin.
    const js = await fetch(`${api.fx.processorOrigin}/processor/card.js`);
    assert.equal(js.status, 200);
    assert.match(js.headers.get('content-type') ?? '', /javascript/);
    assert.ok(!/console\./.test(await js.text()), 'the page script logs nothing');
    assert.equal((await fetch(`${api.fx.processorOrigin}/processor/card.css`)).status, 200);
  });

  test('the page refuses tampered and missing tokens (403) and expired ones (410) with a plain message', async () => {
    const r = await reveal();
    const url = new URL(r.body.panEmbedUrl);
    const token = url.searchParams.get('token')!;
    const [payload, mac] = token.split('.');
    const flipped = mac!.slice(0, -1) + (mac!.endsWith('A') ? 'B' : 'A');
    for (const bad of [`${payload}.${flipped}`, `${payload}x.${mac}`, 'garbage', '']) {
      const p = await fetch(`${api.fx.processorOrigin}/processor/card?token=${encodeURIComponent(bad)}`);
      assert.equal(p.status, 403);
      const html = await p.text();
      assert.match(html, /not valid/);
      assert.ok(!/\d{4} \d{4} \d{4} \d{4}/.test(html));
    }
    assert.equal((await fetch(`${api.fx.processorOrigin}/processor/card`)).status, 403);
    // A token of another sandbox (another secret) is refused.
    const other = await (await import('../../../src/sandbox/index.ts')).startSandbox();
    try {
      const foreign = await fetch(`${other.url}/processor/card?token=${encodeURIComponent(token)}`);
      assert.equal(foreign.status, 403);
    } finally {
      await other.close();
    }
    now += 119_999;
    assert.equal((await fetch(r.body.panEmbedUrl)).status, 200);
    now += 1;
    const expired = await fetch(r.body.panEmbedUrl);
    assert.equal(expired.status, 410);
    const html = await expired.text();
    assert.match(html, /expired/);
    assert.ok(!/\d{4} \d{4} \d{4} \d{4}/.test(html), 'no card data once expired');
  });

  test('403 FORBIDDEN for the impersonated session; 401 without credentials; audit log names the actor', async () => {
    const before = (await api.call('GET', '/sandbox/audit/reveals', { outside: true })).body.data.length;
    assertError(await api.call('POST', `/cards/${api.fx.cardId}/reveal`, { auth: 'impersonation' }), 403, 'FORBIDDEN');
    assertError(await api.call('POST', `/cards/${api.fx.cardId}/reveal`, { auth: 'none' }), 401, 'UNAUTHORIZED');
    assertError(await api.call('POST', `/cards/${api.fx.cardId}/reveal`, { auth: { raw: 'Basic ' + Buffer.from(`${api.fx.tokenId}:wrong`).toString('base64') } }), 401, 'UNAUTHORIZED');
    await reveal();
    const audit = (await api.call('GET', '/sandbox/audit/reveals', { outside: true })).body.data;
    assert.equal(audit.length, before + 1, 'only the successful reveal is logged');
    assert.deepEqual(Object.keys(audit.at(-1)).sort(), ['actor', 'at', 'cardId']);
    assert.equal(audit.at(-1).actor, api.fx.tokenId);
    assert.ok(!JSON.stringify(audit).includes('token='), 'no URL in the audit log');
  });

  test('404 for an unknown card, a malformed id included (the operation lists no 400)', async () => {
    assertError(await api.call('POST', '/cards/Card:00000000-0000-4000-8000-000000000000/reveal'), 404);
    assertError(await api.call('POST', '/cards/1234/reveal'), 404);
    assertError(await api.call('POST', `/cards/${encodeURIComponent(`Customer:${api.fx.cardId.slice(5)}`)}/reveal`), 404);
  });

  test('501 NOT_IMPLEMENTED without a card issuer', async () => {
    const noIssuer = await withSandbox({ cardIssuer: false });
    try {
      assertError(await noIssuer.call('POST', `/cards/${noIssuer.fx.cardId}/reveal`), 501, 'NOT_IMPLEMENTED');
    } finally {
      await noIssuer.sandbox.close();
    }
  });
});
