import { describe, expect, it } from "vitest";
import { classify } from "./request-classes.ts";
import { requestClasses } from "./schemas.ts";

const classes = requestClasses.parse([
  { name: "tier-gold", match: { kind: "header", name: "X-Tier", value: "gold" }, endpointId: "cgold0000000000000000000" },
  { name: "batch", match: { kind: "metadata", key: "workload", value: "batch" }, endpointId: "cbatch000000000000000000" },
  { name: "long", match: { kind: "prompt_tokens_over", tokens: 1000 }, endpointId: "clong0000000000000000000" },
]);
const call = (body: Record<string, unknown>, headers: Record<string, string> = {}) => ({ header: (n: string) => headers[n], body });

describe("request classes", () => {
  it("takes the first rule that matches: a header, a metadata field, then the prompt's length", () => {
    expect(classify(classes, call({ messages: [{ role: "user", content: "hi" }] }, { "x-tier": "gold" }))?.name).toBe("tier-gold");
    expect(classify(classes, call({ messages: [{ role: "user", content: "hi" }], metadata: { workload: "batch" } }))?.name).toBe("batch");
    expect(classify(classes, call({ messages: [{ role: "user", content: "a".repeat(4004) }] }))?.name).toBe("long");
    expect(classify(classes, call({ messages: [{ role: "user", content: "a".repeat(4000) }] }))).toBeNull();
    expect(classify(classes, call({ prompt: "short" }, { "x-tier": "silver" }))).toBeNull();
  });

  it("refuses a rule it could not apply, naming the field", () => {
    const r = requestClasses.safeParse([{ name: "Bad Name", match: { kind: "prompt_tokens_over", tokens: 0 }, endpointId: "x" }]);
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => i.path.join("."))).toEqual(expect.arrayContaining(["0.name", "0.match.tokens"]));
  });
});
