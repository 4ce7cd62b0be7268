/**
 * Caller authentication of the sandbox (api.md "Authentication"): HTTP Basic with the platform's
 * API token id and secret on platform endpoints, a second Basic pair standing for an impersonated
 * dashboard session (a caller with no attributable actor, refused by card reveal), and the agent's
 * Bearer access token on `/agents/me/*`.
 *
 * Deliberately not here: token issuance (the device-code redemption of agents is outside the
 * interface this project uses), scopes, or rate limiting of failed logins.
 */
import { timingSafeEqual } from 'node:crypto';
import { unauthorized, type Ctx } from './http.ts';
import type { AgentRecord } from './state.ts';
import type { ApiCredentials, World } from './world.ts';

export type Actor = { kind: 'platform'; tokenId: string } | { kind: 'impersonation'; tokenId: string };

function same(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

function matches(id: string, secret: string, creds: ApiCredentials): boolean {
  // Both compared every time, so timing does not tell which half was wrong.
  const idOk = same(id, creds.tokenId);
  const secretOk = same(secret, creds.clientSecret);
  return idOk && secretOk;
}

/** The Basic caller, or 401 UNAUTHORIZED. */
export function requireBasic(world: World, ctx: Ctx): Actor {
  const value = ctx.header('authorization') ?? '';
  const m = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(value.trim());
  if (m) {
    const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon > 0) {
      const id = decoded.slice(0, colon);
      const secret = decoded.slice(colon + 1);
      if (matches(id, secret, world.platform)) return { kind: 'platform', tokenId: id };
      if (matches(id, secret, world.impersonation)) return { kind: 'impersonation', tokenId: id };
    }
  }
  throw unauthorized('Valid API credentials (HTTP Basic) are required');
}

/** The agent of a Bearer access token, or 401 UNAUTHORIZED. */
export function requireAgent(world: World, ctx: Ctx): AgentRecord {
  const value = ctx.header('authorization') ?? '';
  const m = /^Bearer ([\x21-\x7e]+)$/i.exec(value.trim());
  const agent = m ? world.store.agentByToken(m[1]!) : undefined;
  if (!agent) throw unauthorized('A valid agent access token (HTTP Bearer) is required');
  return agent;
}
