/**
 * Every route of the sandbox with a well-formed sample path, for the auth and fuzz tests. `auth`
 * says which caller the route expects.
 */
export interface RouteSample {
  method: string;
  path: string;
  auth: 'basic' | 'agent' | 'none';
  outside?: boolean;
}

export function serviceRoutes(fx: { accountId: string; emailCredentialId: string; cardId: string; agentId: string; customerId: string }): RouteSample[] {
  const z = '00000000-0000-4000-8000-000000000000';
  return [
    { method: 'POST', path: '/auth/credentials', auth: 'basic' },
    { method: 'GET', path: `/auth/credentials?accountId=${fx.accountId}`, auth: 'basic' },
    { method: 'DELETE', path: `/auth/credentials/${fx.emailCredentialId}`, auth: 'basic' },
    { method: 'POST', path: `/auth/credentials/${fx.emailCredentialId}/challenge`, auth: 'basic' },
    { method: 'POST', path: `/auth/credentials/${fx.emailCredentialId}/verify`, auth: 'basic' },
    { method: 'GET', path: `/auth/sessions?accountId=${fx.accountId}`, auth: 'basic' },
    { method: 'POST', path: `/auth/sessions/Session:${z}/refresh`, auth: 'basic' },
    { method: 'DELETE', path: `/auth/sessions/Session:${z}`, auth: 'basic' },
    { method: 'POST', path: '/auth/delegated-keys', auth: 'basic' },
    { method: 'GET', path: `/auth/delegated-keys?accountId=${fx.accountId}`, auth: 'basic' },
    { method: 'GET', path: `/auth/delegated-keys/DelegatedKey:${z}`, auth: 'basic' },
    { method: 'DELETE', path: `/auth/delegated-keys/DelegatedKey:${z}`, auth: 'basic' },
    { method: 'POST', path: `/cards/${fx.cardId}/reveal`, auth: 'basic' },
    { method: 'GET', path: '/agents/me/actions', auth: 'agent' },
    { method: 'GET', path: `/agents/me/actions/AgentAction:${z}`, auth: 'agent' },
    { method: 'POST', path: `/agents/${fx.agentId}/actions/AgentAction:${z}/approve`, auth: 'basic' },
    { method: 'POST', path: `/agents/${fx.agentId}/actions/AgentAction:${z}/reject`, auth: 'basic' },
    { method: 'POST', path: `/transactions/Transaction:${z}/approve`, auth: 'basic' },
    { method: 'GET', path: `/internal-accounts/${fx.accountId}`, auth: 'basic' },
    { method: 'PATCH', path: `/internal-accounts/${fx.accountId}`, auth: 'basic' },
    { method: 'POST', path: `/internal-accounts/${fx.accountId}/export`, auth: 'basic' },
    { method: 'GET', path: `/customers/${fx.customerId}`, auth: 'basic' },
    { method: 'PATCH', path: `/customers/${fx.customerId}`, auth: 'basic' },
  ];
}

export function outsideRoutes(fx: { agentId: string }): RouteSample[] {
  return [
    { method: 'GET', path: '/sandbox/fixtures', auth: 'basic', outside: true },
    { method: 'GET', path: '/sandbox/clock', auth: 'basic', outside: true },
    { method: 'POST', path: '/sandbox/clock', auth: 'basic', outside: true },
    { method: 'POST', path: '/sandbox/accounts', auth: 'basic', outside: true },
    { method: 'POST', path: `/sandbox/agents/${fx.agentId}/actions`, auth: 'basic', outside: true },
    { method: 'POST', path: `/sandbox/agents/${fx.agentId}/actions/AgentAction:00000000-0000-4000-8000-000000000000/execution`, auth: 'basic', outside: true },
    { method: 'GET', path: '/sandbox/audit/reveals', auth: 'basic', outside: true },
    { method: 'GET', path: '/oidc/.well-known/openid-configuration', auth: 'none', outside: true },
    { method: 'GET', path: '/oidc/jwks', auth: 'none', outside: true },
    { method: 'POST', path: '/oidc/token', auth: 'none', outside: true },
    { method: 'GET', path: '/oidc/authorize', auth: 'none', outside: true },
    { method: 'POST', path: '/oidc/authorize', auth: 'none', outside: true },
    { method: 'GET', path: '/processor/card', auth: 'none', outside: true },
  ];
}
