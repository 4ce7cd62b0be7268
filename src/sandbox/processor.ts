/**
 * The sandbox's stand-in for the card processor's iframe page (api.md "Card reveal": "a signed,
 * short-lived URL for the card processor's iframe, which shows the full card number (PAN), CVV and
 * expiry"). Reveal tokens are `base64url(JSON {c: cardId, e: expiresAtMs, n: nonce}) "." base64url(
 * HMAC-SHA256(per-start secret, "reveal.v1." + first part))`, so they cannot be forged or extended.
 *
 * The page is served under a strict CSP with no inline script or style: its stylesheet and script
 * are files of their own. It shows the test card only until the token's expiry (the server refuses
 * afterwards; the script blanks the page at that instant and drops the token from the frame's URL).
 * Refusals are a plain message. The token is never logged, echoed into the page, or put in a
 * header. Deliberately not here: real card data, postMessage, styling parameters (the service
 * documents none).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { base64urlDecode, base64urlEncode, utf8Decode, utf8Encode } from '../core/encoding.ts';
import type { Reply, Router } from './http.ts';
import { escapeHtml } from './oidc.ts';
import { isPlainObject } from './validate.ts';
import type { World } from './world.ts';

function mac(world: World, payload: string): Uint8Array {
  return new Uint8Array(createHmac('sha256', world.revealSecret).update(`reveal.v1.${payload}`).digest());
}

export function createRevealToken(world: World, cardId: string, expiresAtMs: number): string {
  const payload = base64urlEncode(utf8Encode(JSON.stringify({ c: cardId, e: expiresAtMs, n: randomBytes(12).toString('base64url') })));
  return `${payload}.${base64urlEncode(mac(world, payload))}`;
}

export type TokenCheck = { ok: true; cardId: string; expiresAtMs: number } | { ok: false; reason: 'invalid' | 'expired' };

export function checkRevealToken(world: World, token: string | null): TokenCheck {
  if (!token || token.length > 1024) return { ok: false, reason: 'invalid' };
  const dot = token.indexOf('.');
  if (dot <= 0) return { ok: false, reason: 'invalid' };
  const payload = token.slice(0, dot);
  let given: Uint8Array;
  let claims: unknown;
  try {
    given = base64urlDecode(token.slice(dot + 1));
    const expected = mac(world, payload);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'invalid' };
    claims = JSON.parse(utf8Decode(base64urlDecode(payload)));
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  if (!isPlainObject(claims) || typeof claims.c !== 'string' || typeof claims.e !== 'number') return { ok: false, reason: 'invalid' };
  if (claims.e <= world.clock.now()) return { ok: false, reason: 'expired' };
  return { ok: true, cardId: claims.c, expiresAtMs: claims.e };
}

/** Who may frame the page: the allowed origins when listed, else any localhost port. */
function frameAncestors(world: World): string {
  return world.options.frameAncestors;
}

function htmlPage(world: World, status: number, title: string, body: string, withScript: boolean): Reply {
  const csp = [
    "default-src 'none'",
    "style-src 'self'",
    withScript ? "script-src 'self'" : "script-src 'none'",
    "img-src 'none'",
    "connect-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${frameAncestors(world)}`,
  ].join('; ');
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="referrer" content="no-referrer"><title>${escapeHtml(title)}</title><link rel="stylesheet" href="/processor/card.css"></head>` +
    `<body>${body}${withScript ? '<script src="/processor/card.js"></script>' : ''}</body></html>`;
  return {
    status,
    raw: html,
    contentType: 'text/html; charset=utf-8',
    headers: { 'Content-Security-Policy': csp, 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-store, max-age=0', Pragma: 'no-cache' },
  };
}

const CARD_CSS = `:root { color-scheme: light dark; font-family: system-ui, sans-serif; }
body { margin: 0; padding: 6px 12px; }
.card { border-radius: 12px; padding: 16px; background: #1f2a44; color: #fff; max-width: 360px; }
.brand { margin: 0 0 12px; font-size: 0.85rem; letter-spacing: 0.05em; text-transform: uppercase; opacity: 0.8; }
.pan { margin: 0 0 12px; font: 600 clamp(0.9rem, 5.5vw, 1.25rem)/1.4 ui-monospace, monospace; letter-spacing: 0.08em; white-space: nowrap; }
@media (max-width: 340px) { body { padding: 6px; } .card { padding: 12px; } dl { gap: 16px; } }
dl { display: flex; gap: 24px; margin: 0 0 12px; }
dt { font-size: 0.75rem; opacity: 0.8; }
dd { margin: 0; font: 600 1rem ui-monospace, monospace; }
.name { margin: 0 0 12px; font-size: 0.9rem; }
button { font: inherit; padding: 6px 12px; border-radius: 6px; border: 1px solid currentColor; background: transparent; color: inherit; cursor: pointer; }
button:focus-visible { outline: 3px solid #8ab4ff; outline-offset: 2px; }
.notice { margin: 0; padding: 12px; }
[hidden] { display: none !important; }
`;

const CARD_JS = `// Sandbox processor page: hides the card at its expiry, copies the number on request,
// and removes the token from this frame's URL so it does not stay in history.
(function () {
  try { history.replaceState(null, '', location.pathname); } catch (e) { /* not fatal */ }
  var card = document.getElementById('card');
  var expired = document.getElementById('expired');
  if (!card) return;
  var expiresAt = Date.parse(card.getAttribute('data-expires-at') || '');
  function hide() {
    card.remove();
    if (expired) expired.hidden = false;
  }
  var left = expiresAt - Date.now();
  if (!(left > 0)) hide(); else setTimeout(hide, Math.min(left, 2147483647));
  var copy = document.getElementById('copy');
  var pan = document.getElementById('pan');
  if (copy && pan && navigator.clipboard) {
    copy.addEventListener('click', function () {
      navigator.clipboard.writeText(pan.textContent.replace(/\\s+/g, '')).then(function () {
        copy.textContent = 'Copied';
      }, function () {
        copy.textContent = 'Copy failed';
      });
    });
  } else if (copy) {
    copy.hidden = true;
  }
})();
`;

export function registerProcessorRoutes(router: Router, world: World): void {
  router.on('GET', '/processor/card.css', () => ({ status: 200, raw: CARD_CSS, contentType: 'text/css; charset=utf-8' }));
  router.on('GET', '/processor/card.js', () => ({ status: 200, raw: CARD_JS, contentType: 'text/javascript; charset=utf-8' }));

  router.on('GET', '/processor/card', (ctx) => {
    const check = checkRevealToken(world, ctx.query.get('token'));
    if (!check.ok) {
      const text = check.reason === 'expired' ? 'This card link has expired. Ask for the card details again.' : 'This card link is not valid.';
      return htmlPage(world, check.reason === 'expired' ? 410 : 403, 'Card details unavailable', `<p class="notice">${text}</p>`, false);
    }
    const card = world.store.cards.get(check.cardId);
    if (!card) return htmlPage(world, 404, 'Card details unavailable', '<p class="notice">This card no longer exists.</p>', false);
    const pan = card.pan.replace(/(.{4})/g, '$1 ').trim();
    const exp = `${String(card.expMonth).padStart(2, '0')}/${String(card.expYear % 100).padStart(2, '0')}`;
    const body =
      `<main id="card" class="card" data-expires-at="${new Date(check.expiresAtMs).toISOString()}">` +
      `<p class="brand">Sandbox test card</p>` +
      `<p class="pan" id="pan" aria-label="Card number">${escapeHtml(pan)}</p>` +
      `<dl><div><dt>Expires</dt><dd id="exp">${exp}</dd></div><div><dt>CVV</dt><dd id="cvv">${escapeHtml(card.cvv)}</dd></div></dl>` +
      `<p class="name">${escapeHtml(card.cardholderName)}</p>` +
      `<button type="button" id="copy">Copy number</button></main>` +
      `<p id="expired" class="notice" hidden>These card details have expired.</p>`;
    return htmlPage(world, 200, 'Card details', body, true);
  });
}
