-- Gateways reload their configuration on a `kule_config` notification. The triggers fired FOR EACH
-- STATEMENT, so a statement that changed no row notified too: the call log's insert trigger
-- (kule_live_spend) runs an UPDATE "Tenant" that blocks a tenant only when it passes its budget
-- and usually matches nothing, and every call-log batch made every gateway reload everything.
-- FOR EACH ROW fires only for rows changed, and PostgreSQL delivers one notification per
-- transaction for identical payloads, so a bulk change still notifies once.
DROP TRIGGER "Tenant_notify_config" ON "Tenant";
DROP TRIGGER "ApiKey_notify_config" ON "ApiKey";
DROP TRIGGER "Endpoint_notify_config" ON "Endpoint";
DROP TRIGGER "EndpointVersion_notify_config" ON "EndpointVersion";
DROP TRIGGER "Replica_notify_config" ON "Replica";
DROP TRIGGER "PricePlan_notify_config" ON "PricePlan";
DROP TRIGGER "TransferSafeguard_notify_config" ON "TransferSafeguard";

CREATE TRIGGER "Tenant_notify_config" AFTER INSERT OR UPDATE OR DELETE ON "Tenant" FOR EACH ROW EXECUTE FUNCTION kule_notify_config();
CREATE TRIGGER "ApiKey_notify_config" AFTER INSERT OR UPDATE OF "tenantId", "secretHash", "allowedEndpointIds", "expiresAt", "revokedAt", "rpmLimit", "tpmLimit" OR DELETE ON "ApiKey" FOR EACH ROW EXECUTE FUNCTION kule_notify_config();
CREATE TRIGGER "Endpoint_notify_config" AFTER INSERT OR UPDATE OR DELETE ON "Endpoint" FOR EACH ROW EXECUTE FUNCTION kule_notify_config();
CREATE TRIGGER "EndpointVersion_notify_config" AFTER INSERT OR UPDATE OR DELETE ON "EndpointVersion" FOR EACH ROW EXECUTE FUNCTION kule_notify_config();
CREATE TRIGGER "Replica_notify_config" AFTER INSERT OR UPDATE OR DELETE ON "Replica" FOR EACH ROW EXECUTE FUNCTION kule_notify_config();
CREATE TRIGGER "PricePlan_notify_config" AFTER INSERT OR UPDATE OR DELETE ON "PricePlan" FOR EACH ROW EXECUTE FUNCTION kule_notify_config();
CREATE TRIGGER "TransferSafeguard_notify_config" AFTER INSERT OR UPDATE OR DELETE ON "TransferSafeguard" FOR EACH ROW EXECUTE FUNCTION kule_notify_config();
