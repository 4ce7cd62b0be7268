/**
 * Public entry of the proxy (`wallet-elements/proxy`): `createProxy(options)` returns a Node request
 * handler to mount in node:http, Express or Fastify, with `proxy.fetch(request)` beside it for
 * servers that take a WHATWG Request and give a Response (see proxy.ts for the policy both
 * enforce), plus the helpers an integrator writing its own `authorize` hook or tooling may want.
 */
export { createProxy } from './proxy.ts';
export type { FetchInfo, FetchProxyHandler, NodeProxyHandler, ProxyHandler, ProxyLogLine, ProxyOptionFields, ProxyOptions } from './proxy.ts';
export type { ProxyRequest } from './request.ts';
export type { AuthorizeContext, AuthorizeDecision, AuthorizeHook, AuthorizeRefusal, DemoAccount } from './authorize.ts';
export { ROUTES, ROUTE_NAMES, isId } from './routes.ts';
export type { RouteDef, RouteName, HttpMethod } from './routes.ts';
export type { RateLimitOptions } from './rate-limit.ts';
export type { StepUpOptions } from './step-up.ts';
export type { UndiciLikeDispatcher, UpstreamTransport } from './upstream.ts';
