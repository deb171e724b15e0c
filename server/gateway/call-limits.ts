import { RateLimitedError } from "../errors.ts";
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

/** Refuses (429) a call whose tenant is over its hard-capped budget or out of requests or tokens. */
export async function checkLimits(limiter: Limiter, call: GatewayCall) {
  if (call.tenant!.budgetBlocked) {
    const now = new Date();
    const monthEnd = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
    throw new RateLimitedError(`This tenant has spent its monthly budget of ${call.tenant!.budgetBlocked} and its hard cap is on: calls are refused until the budget is raised or the month ends.`, {
      code: "budget_exceeded",
      retryAfterSeconds: (monthEnd - now.getTime()) / 1000,
    });
  }
  // A request takes one from each requests bucket; a tokens bucket only has to be out of debt
  // (the answer's tokens are charged after it). All in one check: a request refused for tokens
  // takes nothing from the requests buckets, and Redis is asked once.
  const takes = [...limitBuckets(call, "rpm", 1), ...limitBuckets(call, "tpm", 0)];
  if (!takes.length) return;
  const { wait, bucket } = await limiter.take(takes);
  if (wait > 0) {
    const which = bucket?.startsWith("tpm:") ? "tokens" : "requests";
    const whose = bucket?.includes(":t:") ? "tenant" : "API key";
    throw new RateLimitedError(`Rate limit reached for ${which} per minute on this ${whose}. Retry after ${Math.ceil(wait)} s.`, { code: "rate_limit_exceeded", retryAfterSeconds: wait });
  }
}

/** Charges an answered call's tokens to its buckets (they may go into debt). */
export function chargeTokens(limiter: Limiter, call: GatewayCall) {
  const tokens = call.promptTokens + call.completionTokens;
  if (tokens) void limiter.charge(limitBuckets(call, "tpm"), tokens).catch(() => {});
}
