import { status, Metadata, type ServiceError } from "@grpc/grpc-js";
import { DomainError, isDomainError, type ErrorKind } from "../../errors.ts";

/**
 * What each typed error is in gRPC, the one table for the gateway's gRPC listener (HTTP_STATUS in
 * server/errors.ts is HTTP's). It follows gRPC's own mapping of HTTP statuses
 * (doc/http-grpc-status-mapping.md): a replica that failed or is missing is UNAVAILABLE, a
 * limit is RESOURCE_EXHAUSTED.
 */
export const GRPC_STATUS: Record<ErrorKind, status> = {
  invalid: status.INVALID_ARGUMENT,
  unauthenticated: status.UNAUTHENTICATED,
  forbidden: status.PERMISSION_DENIED,
  not_found: status.NOT_FOUND,
  conflict: status.ABORTED,
  too_large: status.RESOURCE_EXHAUSTED,
  rate_limited: status.RESOURCE_EXHAUSTED,
  upstream: status.UNAVAILABLE,
  unavailable: status.UNAVAILABLE,
  timeout: status.DEADLINE_EXCEEDED,
};

/** Any error as the gRPC status a client gets: a typed one with its message (and `retry-after` when it has one), else INTERNAL. */
export function grpcErrorOf(e: unknown, requestId: string | null): Partial<ServiceError> {
  const metadata = new Metadata();
  if (requestId) metadata.set("x-kule-request-id", requestId);
  if (!isDomainError(e)) {
    console.error("[gateway grpc]", e);
    return { code: status.INTERNAL, details: new DomainError("The gateway failed to handle this request.").message, metadata };
  }
  if (e.retryAfterSeconds !== null) {
    metadata.set("retry-after", String(Math.ceil(e.retryAfterSeconds)));
    // gRPC's own retry hint (retry design A6): a client with a retry policy waits this long before its next attempt.
    metadata.set("grpc-retry-pushback-ms", String(Math.ceil(e.retryAfterSeconds) * 1000));
  }
  return { code: GRPC_STATUS[e.kind], details: e.message, metadata };
}
