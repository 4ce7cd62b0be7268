/**
 * The redirect target of the demo's single sign-on popup (OpenID Connect Core 1.0 §3.2.2.5,
 * implicit flow: the ID token arrives in the URL fragment). It hands the token to the page that
 * opened the popup over a same-origin BroadcastChannel, removes it from the address bar and
 * history, and closes. The token never goes to a server from here.
 */
const params = new URLSearchParams(location.hash.slice(1));
history.replaceState(null, '', location.pathname);
const channel = new BroadcastChannel('demo-oidc');
const idToken = params.get('id_token');
const state = params.get('state');
channel.postMessage(idToken ? { state, idToken } : { state, error: params.get('error') ?? 'no_token' });
channel.close();
const message = document.getElementById('message');
if (message) message.textContent = idToken ? 'Signed in. This window closes now.' : 'Sign-in did not complete. You can close this window.';
setTimeout(() => window.close(), 150);
