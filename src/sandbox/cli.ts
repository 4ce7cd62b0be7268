/**
 * `npm run sandbox -- --port N ...`: starts the sandbox and prints, as its FIRST stdout line, one
 * JSON object with the fixtures (base URL, API credentials, impersonation pair, signer key,
 * processor origin, OIDC issuer, seeded ids, agent token). A short human note goes to stderr, with
 * the proxy's command line against it (its settings from those fixtures), ready to paste.
 * SIGINT and SIGTERM close the server. Options: src/sandbox/cli-options.ts (`--help`).
 *
 * Deliberately not here: request logging (URLs may carry reveal tokens).
 */
import { CliError, USAGE, parseCliOptions, proxyCommand } from './cli-options.ts';
import { startSandbox } from './index.ts';

async function main(): Promise<void> {
  let options;
  try {
    options = parseCliOptions(process.argv.slice(2), process.env);
  } catch (err) {
    if (err instanceof CliError) {
      process.stderr.write(`sandbox: ${err.message}\n\n${USAGE}\n`);
      process.exit(2);
    }
    throw err;
  }
  if (options === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const sandbox = await startSandbox(options);
  process.stdout.write(`${JSON.stringify(sandbox.fixtures)}\n`);
  process.stderr.write(
    `sandbox: listening on ${sandbox.url} (service base ${sandbox.fixtures.baseUrl}); OTP code 000000` +
      `${options.testClock ? '; test clock on' : ''}${options.cardIssuer === false ? '; no card issuer' : ''}\n` +
      `sandbox: to run the proxy against it (in this repository: npm run proxy -- --port 8080 in place of npx):\n${proxyCommand(sandbox.fixtures)}\n`,
  );
  let closing = false;
  const stop = (): void => {
    if (closing) return;
    closing = true;
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`sandbox: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
