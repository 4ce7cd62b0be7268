/**
 * Command-line and environment options of `npm run sandbox` (src/sandbox/cli.ts). Flags win over
 * environment variables (`SANDBOX_*`). Kept apart from the entry point so tests can parse without
 * starting a server.
 *
 * Deliberately not here: config files.
 */
import type { SandboxOptions } from './index.ts';
import type { SandboxFixtures } from '../core/types.ts';

export const USAGE = `Usage: npx wallet-elements-sandbox [options]   (in this repository: npm run sandbox -- [options])

  --port N                      listen port (0 = a free port; default 0)        SANDBOX_PORT
  --host H                      listen address (default 127.0.0.1)              SANDBOX_HOST
  --session-lifetime-ms N       session lifetime (default 900000)               SANDBOX_SESSION_LIFETIME_MS
  --signed-retry-window-ms N    signed-retry request id lifetime (300000)       SANDBOX_SIGNED_RETRY_WINDOW_MS
  --reveal-lifetime-ms N        card reveal URL lifetime (180000)               SANDBOX_REVEAL_LIFETIME_MS
  --otp-resend-interval-ms N    minimum gap between OTP challenges (30000)      SANDBOX_OTP_RESEND_INTERVAL_MS
  --otp-lifetime-ms N           how long one OTP code is accepted (300000)      SANDBOX_OTP_LIFETIME_MS
  --no-card-issuer              card reveal answers 501 NOT_IMPLEMENTED         SANDBOX_CARD_ISSUER=false
  --refresh-seals-key           a session refresh answers a sealed fresh key    SANDBOX_REFRESH_SEALS_KEY=true
                                (encryptedSessionSigningKey) instead of keeping the client's key
  --test-clock                  allow POST /sandbox/clock to move the clock     SANDBOX_TEST_CLOCK=true
  --rp-id ID                    WebAuthn RP id (default localhost)              SANDBOX_RP_ID
  --origin O                    allowed page origin, repeatable (default any    SANDBOX_ORIGINS (comma list)
                                http://localhost:* and http://127.0.0.1:*)
  --seed N                      seed of the generated demo data                 SANDBOX_SEED
  --help                        this text

The first stdout line is one JSON object: the fixtures (base URL, API credentials, seeded ids).`;

export class CliError extends Error {}

const DURATIONS = {
  'session-lifetime-ms': 'sessionLifetimeMs',
  'signed-retry-window-ms': 'signedRetryWindowMs',
  'reveal-lifetime-ms': 'revealLifetimeMs',
  'otp-resend-interval-ms': 'otpResendIntervalMs',
  'otp-lifetime-ms': 'otpLifetimeMs',
} as const;

function int(name: string, raw: string | undefined, min: number, max: number): number {
  if (raw === undefined || !/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new CliError(`${name} needs an integer from ${min} to ${max}`);
  }
  return Number(raw);
}

function bool(name: string, raw: string): boolean {
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new CliError(`${name} must be true or false`);
}

export function parseCliOptions(argv: string[], env: Record<string, string | undefined>): SandboxOptions | 'help' {
  const options: SandboxOptions = { testClock: false };
  const origins: string[] = [];
  let rpId: string | undefined;

  // Environment first, flags override.
  if (env.SANDBOX_PORT !== undefined) options.port = int('SANDBOX_PORT', env.SANDBOX_PORT, 0, 65535);
  // Set but empty is refused as `--host=` is: an empty address would listen on every interface.
  if (env.SANDBOX_HOST !== undefined) {
    if (!env.SANDBOX_HOST) throw new CliError('SANDBOX_HOST is set but empty: give the address to listen on (127.0.0.1 when it is not set)');
    options.host = env.SANDBOX_HOST;
  }
  for (const [flag, key] of Object.entries(DURATIONS)) {
    const envName = `SANDBOX_${flag.replace(/-/g, '_').toUpperCase()}`;
    if (env[envName] !== undefined) options[key] = int(envName, env[envName], 1, 2 ** 31);
  }
  if (env.SANDBOX_CARD_ISSUER !== undefined) options.cardIssuer = bool('SANDBOX_CARD_ISSUER', env.SANDBOX_CARD_ISSUER);
  if (env.SANDBOX_REFRESH_SEALS_KEY !== undefined) options.refreshSealsKey = bool('SANDBOX_REFRESH_SEALS_KEY', env.SANDBOX_REFRESH_SEALS_KEY);
  if (env.SANDBOX_TEST_CLOCK !== undefined) options.testClock = bool('SANDBOX_TEST_CLOCK', env.SANDBOX_TEST_CLOCK);
  if (env.SANDBOX_RP_ID) rpId = env.SANDBOX_RP_ID;
  if (env.SANDBOX_ORIGINS) origins.push(...env.SANDBOX_ORIGINS.split(',').map((s) => s.trim()).filter(Boolean));
  if (env.SANDBOX_SEED !== undefined) options.seed = int('SANDBOX_SEED', env.SANDBOX_SEED, 0, 2 ** 32 - 1);

  const flagOrigins: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') ? (eq === -1 ? arg.slice(2) : arg.slice(2, eq)) : '';
    // An empty value (`--host=`, `--host ""`) is no value: taken, an empty host would listen on every interface.
    const value = (): string => {
      const given = eq === -1 ? argv[++i] : arg.slice(eq + 1);
      if (!given) throw new CliError(`--${name} needs a value`);
      return given;
    };
    if (name === 'help' || arg === '-h') return 'help';
    else if (name === 'port') options.port = int('--port', value(), 0, 65535);
    else if (name === 'host') options.host = value();
    else if (name in DURATIONS) options[DURATIONS[name as keyof typeof DURATIONS]] = int(`--${name}`, value(), 1, 2 ** 31);
    else if (name === 'no-card-issuer') options.cardIssuer = false;
    else if (name === 'card-issuer') options.cardIssuer = true;
    else if (name === 'refresh-seals-key') options.refreshSealsKey = true;
    else if (name === 'test-clock') options.testClock = true;
    else if (name === 'rp-id') rpId = value();
    else if (name === 'origin') flagOrigins.push(value());
    else if (name === 'seed') options.seed = int('--seed', value(), 0, 2 ** 32 - 1);
    else throw new CliError(`unknown option ${arg}`);
  }
  const allOrigins = flagOrigins.length > 0 ? flagOrigins : origins;
  if (rpId !== undefined || allOrigins.length > 0) {
    options.webauthn = { ...(rpId !== undefined ? { rpId } : {}), ...(allOrigins.length > 0 ? { origins: allOrigins } : {}) };
  }
  return options;
}

/** A value as one word of a POSIX shell: in single quotes, a single quote in it closed, escaped and reopened. */
function shellWord(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * The proxy's command line against this sandbox, for a POSIX shell: its four settings taken from
 * the fixtures (README "Point it at the real service"), so they need not be built by hand.
 */
export function proxyCommand(fixtures: Pick<SandboxFixtures, 'baseUrl' | 'tokenId' | 'clientSecret' | 'customerId' | 'accountId' | 'cardId'>): string {
  const { baseUrl, tokenId, clientSecret, customerId, accountId, cardId } = fixtures;
  const env = {
    SERVICE_BASE_URL: baseUrl,
    SERVICE_TOKEN_ID: tokenId,
    SERVICE_CLIENT_SECRET: clientSecret,
    PROXY_DEMO_ACCOUNT: JSON.stringify({ customerId, accountId, cardId }),
  };
  return `${Object.entries(env)
    .map(([name, value]) => `${name}=${shellWord(value)}`)
    .join(' ')} npx wallet-elements-proxy --port 8080`;
}
