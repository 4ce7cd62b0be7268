/**
 * The redirect target of the demo's single sign-on popup (RFC 6749 §4.1.2, authorization code
 * flow: the code, state and issuer arrive in the query). It hands them to the page that opened the
 * popup over a same-origin BroadcastChannel, removes them from the address bar and history, and
 * closes once the opener says it has them. The code alone is worthless: the opener holds the PKCE
 * verifier it must be exchanged with.
 */
const params = new URLSearchParams(location.search);
history.replaceState(null, '', location.pathname);
const channel = new BroadcastChannel('demo-oidc');
const code = params.get('code');
const state = params.get('state');
const iss = params.get('iss');
// Closes once the opener says it has the answer (if the opener is gone, the user closes it).
channel.onmessage = ({ data }: MessageEvent<{ received?: string }>) => {
  if (state !== null && data?.received === state) window.close();
};
channel.postMessage(code ? { state, code, iss } : { state, iss, error: params.get('error') ?? 'no_code' });
const message = document.getElementById('message');
if (message) message.textContent = code ? 'Signed in. This window closes now.' : 'Sign-in did not complete. You can close this window.';
