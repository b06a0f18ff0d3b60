// MCP authorization (OAuth 2.1), free of `vscode`: discovery, the flow, the session the HTTP
// transports take as `auth`, token storage and the loopback redirect.
export { OAuthSession, type OAuthSessionOptions, type SignInRequest, type SignInState, type ServerRefusal } from './session';
export { OAuthFlow, chooseScopes, chooseRegistration, describeGrant, type OAuthFlowOptions, type PreRegisteredClient, type UserAgent, type SignInTarget, type AuthLogger } from './flow';
export { checkEndpoint, discoverAuthorization, parseBearerChallenge, canonicalResource, resourceMetadataUrls, serverMetadataUrls, type BearerChallenge, type DiscoveredAuthorization, type ProtectedResourceMetadata } from './discovery';
export { loopbackRedirect, type Redirect, type RedirectFactory, type LoopbackOptions } from './loopback';
export { FileTokenStore } from './fileTokenStore';
export { MemoryTokenStore, TokenKey, StoredGrant, type TokenStore, type RegisteredClient, type ClientRegistrationKind } from './tokenStore';
export { AuthError, type AuthErrorKind } from './errors';
export type { AuthProvider, AuthChallenge } from '../transport/httpChannel';
export { DpopKey, type DpopSetting, type StoredDpopKey } from './grants/dpop';
export { obtainMachineGrant, describeMachineGrant, type MachineGrant, type MachineGrantKind, type ClientCredentialsGrant, type EnterpriseManagedGrant, type WorkloadIdentityGrant } from './grants/machineGrant';
