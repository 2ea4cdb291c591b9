import { GRANT_TYPES, SCOPES, issuer, serverUrl } from "@/lib/oauth/config";
import { TOKEN_ENDPOINT_AUTH_METHODS } from "@/lib/oauth/schemas";

/** GET /.well-known/oauth-authorization-server (RFC 8414 2). */
export function authorizationServerMetadata() {
  return {
    issuer: issuer(),
    authorization_endpoint: serverUrl("/oauth/authorize"),
    token_endpoint: serverUrl("/oauth/token"),
    registration_endpoint: serverUrl("/oauth/register"),
    revocation_endpoint: serverUrl("/oauth/revoke"),
    device_authorization_endpoint: serverUrl("/v1/device/code"),
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: [...GRANT_TYPES],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: [...TOKEN_ENDPOINT_AUTH_METHODS],
    revocation_endpoint_auth_methods_supported: [...TOKEN_ENDPOINT_AUTH_METHODS],
    scopes_supported: [...SCOPES],
    authorization_response_iss_parameter_supported: true,
    service_documentation: serverUrl("/docs"),
  };
}
