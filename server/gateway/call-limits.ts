import { RateLimitedError } from "../errors.ts";
import type { LimitClass } from "../shared/limit-classes.ts";
import type { GatewayCall } from "./call.ts";
import type { Limiter, Take } from "./limits.ts";

/** The tenant's and the key's buckets of one kind, each with what a request takes from it now. */
export function limitBuckets(call: GatewayCall, which: "rpm" | "tpm", cost = 0): Take[] {
  const out: Take[] = [];
  const t = call.tenant!;
  const k = call.key!;
  const tl = which === "rpm" ? t.rpmLimit : t.tpmLimit;
  const kl = which === "rpm" ? k.rpmLimit : k.tpmLimit;
  if (tl) out.push({ key: `${which}:t:${t.id}`, capacity: tl, cost });
  if (kl) out.push({ key: `${which}:k:${k.id}`, capacity: kl, cost });
  return out;
}

function refuse(call: GatewayCall, errorClass: LimitClass, message: string, code: string, retryAfterSeconds: number): never {
  call.errorClass = errorClass;
  throw new RateLimitedError(message, { code, retryAfterSeconds });
}

function secondsToMonthEnd(now = new Date()) {
  return (Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) - now.getTime()) / 1000;
}

/**
 * Refuses (429) a call whose tenant has reached the platform's credit limit or its own hard-capped
 * budget, or is out of requests or tokens; the call log records which limit (LIMIT_CLASSES).
 */
export async function checkLimits(limiter: Limiter, call: GatewayCall) {
  const t = call.tenant!;
  if (t.creditBlocked) {
    refuse(call, "credit_limit", `This tenant has reached its credit limit of ${t.creditBlocked} for the month: calls are refused until the platform raises the limit or the month ends.`, "credit_limit_reached", secondsToMonthEnd());
  }
  if (t.budgetBlocked) {
    refuse(call, "budget_cap", `This tenant has spent its monthly budget of ${t.budgetBlocked} and its hard cap is on: calls are refused until the budget is raised or the month ends.`, "budget_exceeded", secondsToMonthEnd());
  }
  // A request takes one from each requests bucket; a tokens bucket only has to be out of debt
  // (the answer's tokens are charged after it). All in one check: a request refused for tokens
  // takes nothing from the requests buckets.
  const takes = [...limitBuckets(call, "rpm", 1), ...limitBuckets(call, "tpm", 0)];
  if (!takes.length) return;
  const { wait, bucket } = await limiter.take(takes);
  if (wait > 0) {
    const tokens = bucket?.startsWith("tpm:") ?? false;
    const tenant = bucket?.includes(":t:") ?? false;
    const errorClass = `limit_${tokens ? "tpm" : "rpm"}_${tenant ? "tenant" : "key"}` as LimitClass;
    refuse(call, errorClass, `Rate limit reached for ${tokens ? "tokens" : "requests"} per minute on this ${tenant ? "tenant" : "API key"}. Retry after ${Math.ceil(wait)} s.`, "rate_limit_exceeded", wait);
  }
}

/** Charges an answered call's tokens to its buckets (they may go into debt). */
export function chargeTokens(limiter: Limiter, call: GatewayCall) {
  const tokens = call.promptTokens + call.completionTokens;
  if (tokens) void limiter.charge(limitBuckets(call, "tpm"), tokens).catch(() => {});
}
