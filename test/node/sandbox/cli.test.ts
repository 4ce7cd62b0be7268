// `npm run sandbox` (src/sandbox/cli.ts): the first stdout line is the fixtures JSON, flags and
// SANDBOX_* variables reach the options, and the process stops on SIGTERM.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseCliOptions, proxyCommand } from '../../../src/sandbox/cli-options.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

async function run(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/sandbox/cli.ts', ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk));
  const lines = createInterface({ input: child.stdout! });
  const first = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no first line within 20 s')), 20_000);
    lines.once('line', (l) => {
      clearTimeout(timer);
      resolve(l);
    });
    child.once('exit', (code) => reject(new Error(`exited early with ${code}`)));
  });
  const stop = () =>
    new Promise<number | null>((resolve) => {
      child.removeAllListeners('exit');
      child.once('exit', (code) => resolve(code));
      child.kill('SIGTERM');
    });
  return { fixtures: JSON.parse(first), stop, stderr: () => stderr };
}

/** Runs a command line in a POSIX shell until its first stdout line; then stops it. */
async function firstLineOf(command: string): Promise<string> {
  // In a process group of its own, so that stopping it stops what the shell started.
  const child = spawn('sh', ['-c', command], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk));
  try {
    return await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no first line within 20 s')), 20_000);
      createInterface({ input: child.stdout! }).once('line', (l) => (clearTimeout(timer), resolve(l)));
      child.once('exit', (code) => reject(new Error(`exited with ${code}: ${stderr}`)));
    });
  } finally {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // The group has ended already (a command that printed and exited).
    }
  }
}

const basic = (fx: { tokenId: string; clientSecret: string }) => 'Basic ' + Buffer.from(`${fx.tokenId}:${fx.clientSecret}`).toString('base64');

describe('sandbox CLI', () => {
  test('prints the fixtures as its first line; serves them; moves the clock with --test-clock; stops on SIGTERM', async () => {
    const { fixtures, stop } = await run(['--port', '0', '--test-clock', '--reveal-lifetime-ms', '1000']);
    try {
      assert.deepEqual(Object.keys(fixtures), ['baseUrl', 'tokenId', 'clientSecret', 'impersonation', 'signerPublicKey', 'processorOrigin', 'oidcIssuer', 'customerId', 'accountId', 'emailCredentialId', 'cardId', 'agentId', 'agentToken']);
      assert.deepEqual(Object.keys(fixtures.impersonation), ['tokenId', 'clientSecret']);
      const origin = new URL(fixtures.baseUrl).origin;
      const served = await (await fetch(`${origin}/sandbox/fixtures`, { headers: { authorization: basic(fixtures) } })).json();
      assert.deepEqual(served, fixtures);
      const reveal = await (await fetch(`${fixtures.baseUrl}/cards/${fixtures.cardId}/reveal`, { method: 'POST', headers: { authorization: basic(fixtures) } })).json();
      assert.equal((await fetch(reveal.panEmbedUrl)).status, 200);
      const clock = await fetch(`${origin}/sandbox/clock`, { method: 'POST', headers: { authorization: basic(fixtures), 'content-type': 'application/json' }, body: JSON.stringify({ advanceMs: 1000 }) });
      assert.equal(clock.status, 200);
      assert.equal((await fetch(reveal.panEmbedUrl)).status, 410, 'the reveal lifetime flag took effect');
    } finally {
      assert.equal(await stop(), 0);
    }
  });

  test('--no-card-issuer and SANDBOX_* variables; the clock control is off without --test-clock', async () => {
    const { fixtures, stop } = await run(['--no-card-issuer'], { SANDBOX_PORT: '0', SANDBOX_SEED: '9' });
    try {
      const r = await fetch(`${fixtures.baseUrl}/cards/${fixtures.cardId}/reveal`, { method: 'POST', headers: { authorization: basic(fixtures) } });
      assert.equal(r.status, 501);
      assert.equal((await r.json()).code, 'NOT_IMPLEMENTED');
      const origin = new URL(fixtures.baseUrl).origin;
      const clock = await fetch(`${origin}/sandbox/clock`, { method: 'POST', headers: { authorization: basic(fixtures), 'content-type': 'application/json' }, body: '{"advanceMs":1}' });
      assert.equal(clock.status, 403);
    } finally {
      await stop();
    }
  });

  test('says on stderr the proxy command line against it, whose settings the proxy starts with', async () => {
    const { fixtures, stop, stderr } = await run(['--port', '0']);
    try {
      const command = proxyCommand(fixtures);
      for (let tries = 0; tries < 100 && !stderr().includes(command); tries++) await new Promise((r) => setTimeout(r, 50));
      assert.ok(stderr().includes(`\n${command}\n`), stderr());
      assert.match(command, /^SERVICE_BASE_URL='[^']+' SERVICE_TOKEN_ID='[^']+' SERVICE_CLIENT_SECRET='[^']+' PROXY_DEMO_ACCOUNT='\{[^']+\}' npx wallet-elements-proxy --port 8080$/);
      // Run as printed (the proxy of this repository, on a free port): it checks the credentials and
      // the account against the sandbox before it listens.
      const line = await firstLineOf(command.replace(/npx wallet-elements-proxy --port 8080$/, `'${process.execPath}' --import tsx src/proxy/cli.ts --port 0`));
      const { url } = JSON.parse(line) as { url: string };
      assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/api$/);
    } finally {
      await stop();
    }
  });

  test('the proxy command line keeps a value whole through the shell, quotes included', async () => {
    const odd = { baseUrl: "http://127.0.0.1:1/it's $HOME `x`", tokenId: 'a b', clientSecret: "'", customerId: 'Customer:1', accountId: 'InternalAccount:2', cardId: 'Card:3' } as const;
    const command = proxyCommand(odd).replace(/npx wallet-elements-proxy --port 8080$/, `'${process.execPath}' -e 'console.log(JSON.stringify([process.env.SERVICE_BASE_URL, process.env.SERVICE_TOKEN_ID, process.env.SERVICE_CLIENT_SECRET, JSON.parse(process.env.PROXY_DEMO_ACCOUNT)]))'`);
    assert.deepEqual(JSON.parse(await firstLineOf(command)), [odd.baseUrl, odd.tokenId, odd.clientSecret, { customerId: 'Customer:1', accountId: 'InternalAccount:2', cardId: 'Card:3' }]);
  });

  test('option parsing', () => {
    assert.deepEqual(parseCliOptions(['--port', '8080', '--session-lifetime-ms=60000', '--origin', 'http://localhost:3000', '--rp-id', 'localhost'], {}), {
      testClock: false,
      port: 8080,
      sessionLifetimeMs: 60000,
      webauthn: { rpId: 'localhost', origins: ['http://localhost:3000'] },
    });
    assert.deepEqual(parseCliOptions([], { SANDBOX_SIGNED_RETRY_WINDOW_MS: '1000', SANDBOX_CARD_ISSUER: 'false', SANDBOX_REFRESH_SEALS_KEY: 'true', SANDBOX_TEST_CLOCK: '1', SANDBOX_ORIGINS: 'http://a.test, http://b.test' }), {
      testClock: true,
      signedRetryWindowMs: 1000,
      cardIssuer: false,
      refreshSealsKey: true,
      webauthn: { origins: ['http://a.test', 'http://b.test'] },
    });
    // Flags win over the environment.
    assert.equal((parseCliOptions(['--port', '2'], { SANDBOX_PORT: '3' }) as { port: number }).port, 2);
    assert.equal((parseCliOptions([], { SANDBOX_PORT: '3' }) as { port: number }).port, 3);
    assert.equal(parseCliOptions(['--help'], {}), 'help');
    assert.deepEqual(parseCliOptions(['--refresh-seals-key'], {}), { testClock: false, refreshSealsKey: true });
    for (const bad of [['--port'], ['--port', 'x'], ['--port', '70000'], ['--reveal-lifetime-ms', '0'], ['--frobnicate']]) {
      assert.throws(() => parseCliOptions(bad, {}), /needs|unknown/);
    }
    assert.throws(() => parseCliOptions([], { SANDBOX_CARD_ISSUER: 'maybe' }), /true or false/);
    // An empty value is refused, not taken: `--host=` would listen on every interface.
    for (const bad of [['--host='], ['--host', ''], ['--rp-id='], ['--origin', '']]) {
      assert.throws(() => parseCliOptions(bad, {}), { message: `${bad[0]!.replace(/=$/, '')} needs a value` }, bad.join(' '));
    }
    // The environment is held to what the flags take.
    for (const [name, value] of [['SANDBOX_HOST', ''], ['SANDBOX_PORT', ''], ['SANDBOX_PORT', '1e3'], ['SANDBOX_PORT', '0x50'], ['SANDBOX_SEED', ' 1']]) {
      assert.throws(() => parseCliOptions([], { [name!]: value }), { message: new RegExp(`^${name} `) }, `${name}=${JSON.stringify(value)}`);
    }
  });

  test('bad flags exit with status 2 and the usage on stderr', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/sandbox/cli.ts', '--frobnicate'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr!.on('data', (d) => (err += d));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    assert.equal(code, 2);
    assert.match(err, /unknown option --frobnicate/);
    assert.match(err, /Usage/);
  });
});
