/**
 * Why the gateway refused a call for a limit, or shed it under overload: the call log's
 * `errorClass` of each refusal, with the words the tenant's usage page shows. The gateway writes
 * the keys (server/gateway/call-limits.ts, server/gateway/overload/gate.ts).
 */
export const LIMIT_CLASSES = {
  credit_limit: "the platform's credit limit for the month",
  budget_cap: "the tenant's own monthly budget (hard cap)",
  limit_rpm_tenant: "requests per minute, tenant",
  limit_tpm_tenant: "tokens per minute, tenant",
  limit_rpm_key: "requests per minute, API key",
  limit_tpm_key: "tokens per minute, API key",
  shed_over_share: "overload: more than the tenant's share of a saturated endpoint (429)",
  shed_deadline: "overload: queued past its deadline (503)",
  shed_queue_full: "overload: the endpoint's queue was full",
} as const;

export type LimitClass = keyof typeof LIMIT_CLASSES;

export const isLimitClass = (c: string | null): c is LimitClass => c !== null && c in LIMIT_CLASSES;
