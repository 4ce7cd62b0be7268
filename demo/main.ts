/**
 * The demo page's script: what an integrator writes around the elements. It reads the demo's
 * configuration (which account, card and agent the demo server's proxy is bound to), points every
 * element at the proxy with the sandbox's pinned signer, supplies the OIDC token provider for single
 * sign-on, wires the theme and language pickers, and drives the demo-only platform console that
 * approves or rejects the agent's pending requests through the demo server.
 *
 * Deliberately not here: any wallet logic (the elements and core do it), any key, any reveal URL.
 * The agent token is handed to <agent-actions> as a property; a real agent's app would hold it.
 */
import { configureWallet } from '../src/elements/shared/config.ts';
import { setLocale } from '../src/elements/shared/i18n.ts';
import type { AgentActions, AgentAction } from '../src/index.ts';
import { popupTokenProvider } from './oidc.ts';
import { pageStrings } from './strings.ts';

interface DemoConfig {
  apiBase: string;
  accountId: string;
  customerId: string;
  cardId: string;
  processorOrigin: string;
  oidcIssuer: string;
  oidcClientId: string;
  agentToken: string;
}

const WALLET_TAGS = ['wallet-login', 'passkey-register', 'wallet-credentials', 'card-reveal', 'delegated-keys', 'agent-actions'];
let language: 'en' | 'ar' = 'en';

function t(key: string, params: Record<string, string> = {}): string {
  const text = pageStrings[language][key] ?? pageStrings.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, name: string) => params[name] ?? m);
}

function byId<T extends HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`the page has no #${id}`);
  return el as T;
}

/** Demo-server calls: same origin, JSON, and a header no cross-site form can send. */
async function demoCall<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }), 'x-requested-with': 'demo' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}`);
  return (res.status === 204 ? undefined : await res.json()) as T;
}

async function applyLanguage(next: 'en' | 'ar'): Promise<void> {
  // Arabic is a module of its own (src/locales/ar.ts): loaded only when someone picks it.
  if (next === 'ar') await import('../src/locales/ar.ts');
  language = next;
  byId('console-status').textContent = '';
  document.documentElement.lang = next;
  document.documentElement.dir = next === 'ar' ? 'rtl' : 'ltr';
  setLocale(next);
  for (const el of document.querySelectorAll<HTMLElement>('[data-i18n]')) el.textContent = t(el.dataset['i18n']!);
  for (const el of document.querySelectorAll<HTMLElement>('[data-i18n-label]')) el.setAttribute('aria-label', t(el.dataset['i18nLabel']!));
  void refreshConsole();
}

function applyTheme(theme: string): void {
  if (theme) document.documentElement.dataset['theme'] = theme;
  else delete document.documentElement.dataset['theme'];
  for (const el of document.querySelectorAll(WALLET_TAGS.join(','))) {
    if (theme) el.setAttribute('theme', theme);
    else el.removeAttribute('theme');
  }
}

// ---- the platform console (demo only)

async function refreshConsole(): Promise<void> {
  const list = document.getElementById('pending');
  if (!list) return;
  let pending: AgentAction[];
  try {
    pending = (await demoCall<{ data: AgentAction[] }>('GET', '/demo/agent/pending')).data;
  } catch {
    byId('console-status').textContent = t('demo.console.failed');
    return;
  }
  // The list is rebuilt: a keyboard user inside it (say, on the Approve just pressed) keeps a place
  // in it, the first pending item's button, or the New request button when none is left.
  const hadFocus = list.contains(document.activeElement);
  // The newest few are enough for a demo; the agent's panel shows them all.
  list.replaceChildren(
    ...pending.slice(0, 4).map((action) => {
      const item = document.createElement('li');
      const label = document.createElement('span');
      label.textContent = t('demo.console.item', { type: t(`demo.console.type.${action.type}`), id: action.id.slice(-4) });
      const approve = document.createElement('button');
      approve.type = 'button';
      approve.textContent = t('demo.console.approve');
      approve.addEventListener('click', () => void oneAtATime(item, () => decide(action.id, 'approve')));
      const reject = document.createElement('button');
      reject.type = 'button';
      reject.className = 'secondary';
      reject.textContent = t('demo.console.reject');
      reject.addEventListener('click', () => void oneAtATime(item, () => decide(action.id, 'reject')));
      // The two decisions wrap as one: on a narrow column both go under the label, side by side.
      const decisions = document.createElement('span');
      decisions.className = 'decisions';
      decisions.append(approve, reject);
      item.append(label, decisions);
      return item;
    }),
  );
  if (pending.length === 0) {
    const none = document.createElement('li');
    none.className = 'hint';
    none.textContent = t('demo.console.none');
    list.append(none);
  }
  if (hadFocus) (list.querySelector('button') ?? byId('new-request')).focus();
}

/**
 * Runs a console call with the buttons of `scope` marked busy until it settles, so a double click
 * makes one request (a second approval would only be refused with 409). aria-disabled, not
 * disabled: a disabled button loses the keyboard focus.
 */
async function oneAtATime(scope: HTMLElement, run: () => Promise<void>): Promise<void> {
  const buttons = scope instanceof HTMLButtonElement ? [scope] : [...scope.querySelectorAll('button')];
  if (buttons.some((b) => b.getAttribute('aria-disabled') === 'true')) return;
  for (const b of buttons) b.setAttribute('aria-disabled', 'true');
  try {
    await run();
  } finally {
    for (const b of buttons) b.removeAttribute('aria-disabled');
  }
}

async function decide(actionId: string, verb: 'approve' | 'reject'): Promise<void> {
  const status = byId('console-status');
  try {
    await demoCall('POST', `/demo/agent/actions/${actionId}/${verb}`, verb === 'reject' ? { reason: t('demo.console.reason') } : {});
    status.textContent = t(verb === 'approve' ? 'demo.console.approved' : 'demo.console.rejected');
    void (byId('agent') as AgentActions).checkNow();
  } catch {
    status.textContent = t('demo.console.failed');
  }
  await refreshConsole();
}

async function newRequest(): Promise<void> {
  const status = byId('console-status');
  try {
    await demoCall('POST', '/demo/agent/requests', {});
    status.textContent = t('demo.console.created');
    void (byId('agent') as AgentActions).checkNow();
  } catch {
    status.textContent = t('demo.console.failed');
  }
  await refreshConsole();
}

// ---- start

async function main(): Promise<void> {
  // Configure first, define the elements second: an element reads the configuration when it
  // connects. `environment: 'sandbox'` pins the sandbox's published signer key.
  configureWallet({ apiBase: '/api', environment: 'sandbox' });
  await import('../src/index.ts');
  const config = await demoCall<DemoConfig>('GET', '/demo/config.json');

  const provider = popupTokenProvider(config.oidcIssuer, config.oidcClientId);
  for (const id of ['login', 'passkey', 'credentials', 'keys', 'reveal']) byId(id).setAttribute('account-id', config.accountId);
  (byId('login') as HTMLElement & { oidcTokenProvider?: unknown }).oidcTokenProvider = provider;
  const credentials = byId('credentials') as HTMLElement & { oidcTokenProvider?: unknown };
  credentials.setAttribute('customer-id', config.customerId);
  credentials.oidcTokenProvider = provider;
  for (const id of ['reveal', 'keys']) byId(id).setAttribute('card-id', config.cardId);
  // The sandbox's processor page is served over http on loopback: allow-list its origin.
  byId('reveal').setAttribute('allowed-origins', config.processorOrigin);
  (byId('agent') as AgentActions).agentToken = config.agentToken;

  const theme = byId<HTMLSelectElement>('theme');
  theme.addEventListener('change', () => applyTheme(theme.value));
  const lang = byId<HTMLSelectElement>('language');
  lang.addEventListener('change', () => void applyLanguage(lang.value === 'ar' ? 'ar' : 'en'));
  const newButton = byId('new-request');
  newButton.addEventListener('click', () => void oneAtATime(newButton, newRequest));
  // The console follows the agent's list: a decision or a new request changes both.
  byId('agent').addEventListener('agent-action-changed', () => void refreshConsole());

  const params = new URLSearchParams(location.search);
  if (params.get('theme') === 'light' || params.get('theme') === 'dark') {
    theme.value = params.get('theme')!;
    applyTheme(theme.value);
  }
  if (params.get('lang') === 'ar') {
    lang.value = 'ar';
    await applyLanguage('ar');
  } else {
    await refreshConsole();
  }
}

main().catch(() => {
  byId('console-status').textContent = t('demo.console.failed');
});
