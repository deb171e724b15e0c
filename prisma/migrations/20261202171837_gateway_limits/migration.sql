-- AlterTable
ALTER TABLE "Tenant" ADD COLUMN     "rpmLimit" INTEGER,
ADD COLUMN     "tpmLimit" INTEGER;

-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN     "rpmLimit" INTEGER,
ADD COLUMN     "tpmLimit" INTEGER;

-- Gateways keep routes, weights, keys and limits in memory and reload when told: every change to
-- what they serve from notifies the `kule_config` channel, whichever code path made it.
CREATE OR REPLACE FUNCTION kule_notify_config() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('kule_config', TG_TABLE_NAME);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER "Tenant_notify_config" AFTER INSERT OR UPDATE OR DELETE ON "Tenant" FOR EACH STATEMENT EXECUTE FUNCTION kule_notify_config();
CREATE TRIGGER "ApiKey_notify_config" AFTER INSERT OR UPDATE OF "tenantId", "secretHash", "allowedEndpointIds", "expiresAt", "revokedAt", "rpmLimit", "tpmLimit" OR DELETE ON "ApiKey" FOR EACH STATEMENT EXECUTE FUNCTION kule_notify_config();
CREATE TRIGGER "Endpoint_notify_config" AFTER INSERT OR UPDATE OR DELETE ON "Endpoint" FOR EACH STATEMENT EXECUTE FUNCTION kule_notify_config();
CREATE TRIGGER "EndpointVersion_notify_config" AFTER INSERT OR UPDATE OR DELETE ON "EndpointVersion" FOR EACH STATEMENT EXECUTE FUNCTION kule_notify_config();
CREATE TRIGGER "Replica_notify_config" AFTER INSERT OR UPDATE OR DELETE ON "Replica" FOR EACH STATEMENT EXECUTE FUNCTION kule_notify_config();
