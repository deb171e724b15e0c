import { NotFoundError, UnauthenticatedError } from "../errors.ts";
import { hashApiKey } from "../auth/api-key-secret.ts";
import type { EndpointConfig, GatewayConfig, KeyConfig, TenantConfig } from "./config.ts";

const refuse = (message: string) => new UnauthenticatedError(message, { code: "invalid_api_key" });

/** The key and tenant behind an `Authorization: Bearer` header, or a 401 saying what is wrong. */
export function authenticate(cfg: GatewayConfig, authorization: string | undefined): { key: KeyConfig; tenant: TenantConfig } {
  const auth = authorization ?? "";
  const secret = auth.startsWith("Bearer ") ? auth.slice(7).trim() : "";
  if (!secret) throw refuse("Missing API key: send it as 'Authorization: Bearer <key>'.");
  const key = cfg.keysByHash.get(hashApiKey(secret));
  if (!key) throw refuse("Incorrect API key provided.");
  if (key.revoked) throw refuse("This API key has been revoked.");
  if (key.expiresAt !== null && key.expiresAt <= Date.now()) throw refuse("This API key has expired.");
  const tenant = cfg.tenants.get(key.tenantId);
  if (!tenant?.active) throw refuse("This API key's tenant is suspended.");
  return { key, tenant };
}

export const keyMayCall = (key: KeyConfig, e: EndpointConfig) => !key.allowedEndpointIds || key.allowedEndpointIds.has(e.id);

/** A key not allowed on an endpoint gets the same 404 as an endpoint that does not exist. */
export function endpointFor(cfg: GatewayConfig, key: KeyConfig, slug: string): EndpointConfig {
  const e = cfg.endpointsBySlug.get(slug);
  if (!e || !keyMayCall(key, e)) {
    throw new NotFoundError("Model", { message: `The model \`${slug}\` does not exist or you do not have access to it.`, field: "model", code: "model_not_found" });
  }
  return e;
}
