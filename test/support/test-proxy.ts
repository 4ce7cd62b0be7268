/**
 * The proxy as the browser tests, screenshots and benchmarks mount it in front of a sandbox: the
 * sandbox's platform credentials, every account allowed (tests make fresh accounts; binding a proxy
 * to one account is the proxy's own tests' subject), no rate limit and no log. `options` override
 * any of these (another credential pair, a base path, the card-reveal step-up).
 */
import { createProxy, type ProxyHandler, type ProxyOptions } from '../../src/proxy/index.ts';
import type { SandboxFixtures } from '../../src/core/types.ts';

export function testProxy(fixtures: SandboxFixtures, options: Partial<ProxyOptions> = {}): ProxyHandler {
  return createProxy({
    upstream: fixtures.baseUrl,
    tokenId: fixtures.tokenId,
    clientSecret: fixtures.clientSecret,
    authorize: () => true,
    basePath: '/api',
    rateLimit: false,
    logger: () => {},
    ...options,
  });
}
