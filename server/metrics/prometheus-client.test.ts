import { describe, expect, it } from "vitest";
import { isMetricsUnavailable, isPromQueryError, MetricsUnavailableError, PromQueryError } from "./prometheus-client.ts";

describe("metrics errors", () => {
  it("are recognised by their brand, also when thrown by another bundled copy of the class", () => {
    class CopyOfUnavailable extends Error {
      readonly kuleMetricsUnavailable = true;
    }
    class CopyOfQueryError extends CopyOfUnavailable {
      readonly kulePromQueryError = true;
    }
    expect(isMetricsUnavailable(new CopyOfUnavailable("down"))).toBe(true);
    expect(isPromQueryError(new CopyOfQueryError("parse error"))).toBe(true);
    expect(isPromQueryError(new CopyOfUnavailable("down"))).toBe(false);
    expect(isMetricsUnavailable(new PromQueryError("x"))).toBe(true);
    expect(isMetricsUnavailable(new MetricsUnavailableError("x"))).toBe(true);
    expect(isMetricsUnavailable(new Error("other"))).toBe(false);
  });
});
